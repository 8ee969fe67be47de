package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SeededTest {

    private static String word(SplittableRandom random) {
        return Seeded.stringOf(random, "ab\n\u202E", 6);
    }

    @Test
    void aFailingPropertyNamesItsSeedTryAndInput() {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> Seeded.forAll(42L, 1000, SeededTest::word, w -> assertTrue(!w.contains("\n"), "a line feed")));
        String message = failure.getMessage();
        assertTrue(message.contains("with seed 42 (replay: -Daii.test.seed=42)"), message);
        assertTrue(message.matches("(?s)property failed on try \\d+ of 1000 .*input .*\\\\u\\{000A\\}.*a line feed.*"),
                message);
    }

    @Test
    void oneSeedDrawsTheSameInputsEveryTime() {
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        Seeded.forAll(7L, 50, SeededTest::word, first::add);
        Seeded.forAll(7L, 50, SeededTest::word, second::add);
        assertEquals(first, second);
        assertEquals(50, first.size());
    }

    @Test
    void listsKeepToTheirSizeBounds() {
        Seeded.forAll(500, r -> Seeded.listOf(r, 1, 6, SeededTest::word), list -> {
            assertTrue(list.size() >= 1 && list.size() <= 6, "size " + list.size());
            list.forEach(w -> assertTrue(w.length() <= 6, w));
        });
    }
}
