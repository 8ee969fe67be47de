package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A request body written as bytes is byte for byte the JSON text encoded as
 * UTF-8, as it was sent before: lone surrogates as {@code ?}, pairs as one
 * four-byte character, controls escaped, long texts across the writer's
 * buffers. Seeded: a failure names its seed ({@code -Daii.test.seed=}).
 */
class JsonBytesTest {

    private static final char[] PIECES = {'a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f',
        '\u00e9', '\u20ac', '\u2028', '\ud83d', '\ude00', '\ud800', '\udfff', '\uffff', '/'};

    private static String text(SplittableRandom random) {
        StringBuilder out = new StringBuilder();
        int length = random.nextInt(10) == 0 ? 20_000 + random.nextInt(20_000) : random.nextInt(40);
        for (int i = 0; i < length; i++) {
            out.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return out.toString();
    }

    private static void same(ObjectNode node) {
        assertArrayEquals(Json.write(node).getBytes(StandardCharsets.UTF_8), Json.writeBytes(node));
    }

    @Test
    void theBytesAreTheTextEncodedAsUtf8() {
        long seed = Long.getLong("aii.test.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        try {
            for (int i = 0; i < 2_000; i++) {
                ObjectNode node = Json.object();
                node.put("model", text(random));
                node.putArray("messages").addObject().put("role", "user").put("content", text(random));
                node.put("n", random.nextInt());
                same(node);
            }
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + " (-Daii.test.seed=" + seed + ")", e);
        }
    }

    @Test
    void aSurrogatePairSplitAcrossTheWritersBufferStaysOneCharacter() {
        for (int at = 8_180; at < 8_200; at++) {
            ObjectNode node = Json.object();
            node.put("content", "x".repeat(at) + "\ud83d\ude00" + "y");
            same(node);
            node.put("content", "x".repeat(at) + "\ud800" + "y");
            same(node);
        }
    }
}
