package dev.aii.openai;

import dev.aii.policy.Render;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The line added to {@code unavailable_server} when the way the server
 * could not be reached shows what is wrong with the base URL: no scheme,
 * {@code https://} to a server that speaks plain HTTP, a host name nobody
 * knows, the chat endpoint itself, or no {@code /v1}.
 */
final class BaseUrlHints {

    private static final String CHAT = "/chat/completions";

    private BaseUrlHints() {
    }

    /** {@code did you mean <url> ?} */
    static String didYouMean(String url) {
        return "did you mean " + Render.escape(url) + " ?";
    }

    /** A hint from the base URL alone: one without a scheme, or one ending in the chat endpoint. */
    static Optional<String> ofUrl(String base) {
        String lower = base.toLowerCase(Locale.ROOT);
        if (!lower.contains("://")) {
            return Optional.of(didYouMean("http://" + base));
        }
        if (lower.endsWith(CHAT)) {
            return Optional.of(didYouMean(base.substring(0, base.length() - CHAT.length())));
        }
        return Optional.empty();
    }

    /**
     * A hint from how the connection failed: {@code https://} answered in
     * plain text ({@code did you mean http://... ?}), or a host name that
     * does not resolve ({@code <host> is not a host name this machine knows}).
     */
    static Optional<String> ofFailure(String base, IOException e) {
        Optional<String> fromUrl = ofUrl(base);
        if (fromUrl.isPresent()) {
            return fromUrl;
        }
        String said = ServerErrors.describe(e);
        if (said.startsWith("Unrecognized SSL message") && base.regionMatches(true, 0, "https://", 0, 8)) {
            return Optional.of(didYouMean("http://" + base.substring(8)));
        }
        if (said.startsWith("unknown host")) {
            String host = host(base).orElse(base);
            return Optional.of(Render.escape(host) + " is not a host name this machine knows");
        }
        return Optional.empty();
    }

    private static Optional<String> host(String base) {
        try {
            return Optional.ofNullable(URI.create(base).getHost());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
