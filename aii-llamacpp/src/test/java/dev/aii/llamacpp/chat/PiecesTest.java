package dev.aii.llamacpp.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Token bytes become text without ever splitting a character. Seeded: a
 * failure names its seed; {@code -Daii.test.seed=<seed>} replays it.
 */
class PiecesTest {

    private static final String ALPHABET = "aZ \n\u00e9\u00df\u2014\u20ac\u4e2d\ud83d\ude00\ud83c\udf0d";

    private static long seed() {
        String fixed = System.getProperty("aii.test.seed");
        return fixed == null || fixed.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(fixed.strip());
    }

    @Test
    void textCutAnywhereIntoPiecesComesBackWholeAndNeverShowsHalfACharacter() {
        long seed = seed();
        SplittableRandom random = new SplittableRandom(seed);
        for (int t = 0; t < 500; t++) {
            StringBuilder original = new StringBuilder();
            int length = random.nextInt(40);
            for (int i = 0; i < length; i++) {
                int at = random.nextInt(ALPHABET.length());
                if (Character.isLowSurrogate(ALPHABET.charAt(at))) {
                    at--;
                }
                original.appendCodePoint(ALPHABET.codePointAt(at));
            }
            byte[] bytes = original.toString().getBytes(StandardCharsets.UTF_8);
            Pieces pieces = new Pieces();
            int from = 0;
            while (from < bytes.length) {
                int to = Math.min(bytes.length, from + 1 + random.nextInt(5));
                pieces.add(Arrays.copyOfRange(bytes, from, to));
                String text = pieces.text();
                assertFalse(text.contains("\ufffd"), "seed " + seed + ": " + text);
                assertEquals(true, original.toString().startsWith(text), "seed " + seed + ": " + text);
                from = to;
            }
            assertEquals(original.toString(), pieces.text(), "seed " + seed);
            assertEquals(original.toString(), pieces.all(), "seed " + seed);
        }
    }

    @Test
    void bytesThatCanNeverBeACharacterBecomeTheReplacementCharacter() {
        Pieces pieces = new Pieces();
        pieces.add(new byte[] {'a', (byte) 0xFF, 'b'});
        assertEquals("a\ufffdb", pieces.text());
    }

    @Test
    void anIncompleteCharacterAtTheEndWaitsButAllShowsIt() {
        Pieces pieces = new Pieces();
        pieces.add(new byte[] {'x', (byte) 0xE2, (byte) 0x80});
        assertEquals("x", pieces.text());
        assertEquals("x\ufffd", pieces.all());
        pieces.add(new byte[] {(byte) 0x94});
        assertEquals("x\u2014", pieces.text());
    }
}
