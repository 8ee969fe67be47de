package dev.aii.ffm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class LanguagesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "zh-Hans-CN, zh-CN",
            "zh-Hant-TW, zh-TW",
            "en-US, en-US",
            "en_GB, en-GB",
            "pt-BR, pt-BR",
            "es-419, es-419",
            "de, de",
            "sr-Cyrl, sr",
    })
    void theScriptSubtagIsRemoved(String tag, String expected) {
        assertEquals(Optional.of(expected), Languages.withoutScript(tag));
    }

    @Test
    void theListIsSortedWithoutDuplicates() {
        assertEquals(Optional.of(List.of("en-GB", "en-US", "zh-CN")),
                Languages.fromJson("[\"zh-Hans-CN\", \"en-US\", \"zh-CN\", \"en-GB\"]"));
    }

    @Test
    void anEmptyArrayIsNoLanguages() {
        assertEquals(Optional.of(List.of()), Languages.fromJson("[]"));
    }

    @Test
    void aTagWithoutALanguageIsLeftOut() {
        assertEquals(Optional.of(List.of("fr-FR")), Languages.fromJson("[\"\", \"fr-FR\"]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "[1]", "[\"en\"", "[\"en\"] x", "null", "[[\"en\"]]"})
    void textThatIsNotAnArrayOfStringsGivesNothing(String json) {
        assertEquals(Optional.empty(), Languages.fromJson(json));
    }
}
