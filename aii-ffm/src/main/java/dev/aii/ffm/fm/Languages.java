package dev.aii.ffm.fm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/** The labels of {@code --model-info}: supported languages as BCP-47 tags without their script subtag. */
public final class Languages {

    private static final JsonFactory JSON = new JsonFactory();

    private Languages() {
    }

    /**
     * The tags of the shim's JSON array, script subtags removed ({@code zh-Hans-CN} becomes
     * {@code zh-CN}), sorted and without duplicates; empty when the text is not an array of strings.
     */
    public static Optional<List<String>> fromJson(String json) {
        List<String> raw = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return Optional.empty();
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token != JsonToken.VALUE_STRING) {
                    return Optional.empty();
                }
                raw.add(parser.getText());
            }
            if (parser.nextToken() != null) {
                return Optional.empty();
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        TreeSet<String> tags = new TreeSet<>();
        for (String tag : raw) {
            withoutScript(tag).ifPresent(tags::add);
        }
        return Optional.of(List.copyOf(tags));
    }

    /** {@code tag} with only its language and region, e.g. {@code en-US}; empty when it names no language. */
    static Optional<String> withoutScript(String tag) {
        Locale locale = Locale.forLanguageTag(tag.replace('_', '-'));
        if (locale.getLanguage().isEmpty()) {
            return Optional.empty();
        }
        Locale.Builder builder = new Locale.Builder().setLanguage(locale.getLanguage());
        if (!locale.getCountry().isEmpty()) {
            builder.setRegion(locale.getCountry());
        }
        return Optional.of(builder.build().toLanguageTag());
    }
}
