package dev.aii.cli.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Text read in pieces is the text of the whole input decoded at once: seeded
 * random bytes (valid and broken UTF-8 of every length, surrogates encoded,
 * overlong forms, truncated sequences) read in random short reads into small
 * pieces, so that every kind of sequence falls across a boundary. A failure
 * prints its seed and the input; {@code -Daii.test.seed=} replays it.
 */
class TextPiecesTest {

    private static final byte[][] UNITS = {
        {'a'}, {'\n'}, {0}, {0x7f}, "é".getBytes(StandardCharsets.UTF_8), "€".getBytes(StandardCharsets.UTF_8),
        "😀".getBytes(StandardCharsets.UTF_8), "\uFFFF".getBytes(StandardCharsets.UTF_8),
        {(byte) 0x80}, {(byte) 0xbf}, {(byte) 0xc0, (byte) 0x80}, {(byte) 0xc1, (byte) 0xbf}, {(byte) 0xc2},
        {(byte) 0xe2, (byte) 0x82}, {(byte) 0xe0, (byte) 0x80, (byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
        {(byte) 0xed, (byte) 0xbf, (byte) 0xbf}, {(byte) 0xf0, (byte) 0x9f}, {(byte) 0xf0, (byte) 0x9f, (byte) 0x98},
        {(byte) 0xf0, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xf5}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xfe}, {(byte) 0xff},
    };

    private static byte[] input(Random random) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int n = random.nextInt(60); n > 0; n--) {
            out.writeBytes(UNITS[random.nextInt(UNITS.length)]);
        }
        return out.toByteArray();
    }

    /** Hands out its bytes in reads of 1 to 7 bytes. */
    private static InputStream dribble(byte[] bytes, Random random) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(7)));
            }
        };
    }

    private static Optional<String> strictDecode(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    @Test
    void piecesJoinToTheTextOfTheWholeInput() throws IOException {
        String fixed = System.getProperty("aii.test.seed");
        long seed = fixed == null || fixed.isBlank() ? new Random().nextLong() : Long.parseLong(fixed.trim());
        Random random = new Random(seed);
        int broken = 0;
        for (int run = 0; run < 20_000; run++) {
            byte[] bytes = input(random);
            int piece = 4 + random.nextInt(12);
            String context = "seed " + seed + ", run " + run + ", piece " + piece + ", input " + HexFormat.of().formatHex(bytes);
            List<String> lenient = TextPieces.read(dribble(bytes, random), false, piece, TextPieces.MAX_CHARS);
            assertEquals(new String(bytes, StandardCharsets.UTF_8), TextPieces.join("", lenient, ""), context);
            assertTrue(lenient.stream().noneMatch(String::isEmpty), context);
            Optional<String> whole = strictDecode(bytes);
            try {
                List<String> strict = TextPieces.read(dribble(bytes, random), true, piece, TextPieces.MAX_CHARS);
                assertEquals(whole, Optional.of(TextPieces.join("", strict, "")), context);
            } catch (CharacterCodingException e) {
                if (whole.isPresent()) {
                    fail("strict reading refused valid UTF-8: " + context, e);
                }
                broken++;
            }
        }
        assertTrue(broken > 1000, "too few broken inputs: " + broken + " (seed " + seed + ")");
    }

    @Test
    void joinedTextHasWhatIsAroundIt() {
        assertEquals("ab\ncd--", TextPieces.join("a", List.of("b\n", "c", "d"), "--"));
        assertEquals("", TextPieces.join("", List.of(), ""));
        String only = "only";
        assertTrue(TextPieces.join("", List.of(only), "") == only, "a single piece is not copied");
    }

    @Test
    void anEmptyInputHasNoPieces() throws IOException {
        assertEquals(List.of(), TextPieces.read(InputStream.nullInputStream(), false));
        assertEquals(List.of(), TextPieces.read(InputStream.nullInputStream(), true));
    }

    @Test
    void piecesAreAsLongAsAskedSoThatAFewHoldALargeInput() throws IOException {
        byte[] bytes = "x".repeat(3 * TextPieces.PIECE + 5).getBytes(StandardCharsets.US_ASCII);
        List<String> pieces = TextPieces.read(new ByteArrayInputStream(bytes), false);
        assertEquals(4, pieces.size());
        assertEquals(TextPieces.PIECE, pieces.get(0).length());
        assertEquals(5, pieces.get(3).length());
    }

    @Test
    void anInputLongerThanAStringCanHoldIsRefusedOnceItIsLonger() throws IOException {
        byte[] ten = "0123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(List.of("0123456789"), TextPieces.read(new ByteArrayInputStream(ten), false, 16, 10));
        TextPieces.TooLarge e = assertThrows(TextPieces.TooLarge.class,
                () -> TextPieces.read(new ByteArrayInputStream(ten), false, 4, 9));
        assertEquals("too large to read into memory", e.getMessage());
        // an input that never ends is read only as far as the limit
        InputStream zeros = new InputStream() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) 0);
                return len;
            }
        };
        assertThrows(TextPieces.TooLarge.class, () -> TextPieces.read(zeros, true, 1024, 1 << 20));
    }
}
