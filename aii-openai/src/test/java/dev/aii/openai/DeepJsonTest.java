package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Nesting counted, and flattened below a depth, with brackets and escapes inside strings left alone. */
class DeepJsonTest {

    @ParameterizedTest(name = "{0} is {1} deep")
    @CsvSource(delimiter = '|', quoteCharacter = '\u0000', value = {
        "1|0",
        "{}|1",
        "[[[]]]|3",
        "{\"a\":[1,{\"b\":2}]}|3",
        "{\"a\":\"[[[{{{\"}|1",
        "{\"a\":\"\\\"[[\"}|1",
        "{\"a\":\"\\\\\",\"b\":[[]]}|3",
        "not json [ at all|1",
    })
    void depthCountsOnlyBracketsOutsideStrings(String json, int depth) {
        assertEquals(depth, DeepJson.depth(json));
    }

    @ParameterizedTest(name = "{0} kept to {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\u0000', value = {
        "{\"a\":{\"b\":{\"c\":1}}}|2|{\"a\":{\"b\":\"{\\\"c\\\":1}\"}}",
        "[[1],[2,[3]]]|1|[\"[1]\",\"[2,[3]]\"]",
        "{\"a\":\"{not\\\" [nested\"}|0|\"{\\\"a\\\":\\\"{not\\\\\\\" [nested\\\"}\"",
        "{\"a\":1}|3|{\"a\":1}",
    })
    void flattenQuotesWhatOpensBelowTheKeptDepth(String json, int keep, String flattened) {
        assertEquals(flattened, DeepJson.flatten(json, keep));
    }
}
