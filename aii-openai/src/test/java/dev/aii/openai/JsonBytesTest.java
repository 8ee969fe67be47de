package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A request body written as bytes is byte for byte the JSON text encoded as
 * UTF-8, as it was sent before: lone surrogates as {@code ?}, pairs as one
 * four-byte character, controls escaped, long texts across the writer's
 * buffers; and streamed as a request body, the same bytes after the length
 * it announced, the connection left open. Seeded: a failure names its seed ({@code -Daii.test.seed=}).
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

    /** The text's bytes, as bytes and as a request body streams them (its length announced first). */
    private static void same(ObjectNode node) {
        byte[] expected = Json.write(node).getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, Json.writeBytes(node));
        RequestBody body = new RequestBody(node);
        assertEquals(expected.length, body.length());
        Wire wire = new Wire();
        try {
            body.writeTo(wire);
            body.writeTo(wire);     // written again for a retry: the same bytes
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertFalse(wire.closed, "the connection was closed by writing the body");
        byte[] twice = wire.toByteArray();
        assertArrayEquals(expected, Arrays.copyOfRange(twice, 0, expected.length));
        assertArrayEquals(expected, Arrays.copyOfRange(twice, expected.length, twice.length));
        assertEquals(expected.length, body.length());
    }

    /** A connection that records what reached it, and whether it was closed. */
    private static final class Wire extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void aBodyTheConnectionRefusesMidwayFailsWithTheConnectionsError() {
        ObjectNode node = Json.object();
        node.put("content", "x".repeat(100_000));
        IOException refused = new IOException("Broken pipe");
        OutputStream breaking = new OutputStream() {
            private int written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written += len;
                if (written > 20_000) {
                    throw refused;
                }
            }
        };
        IOException thrown = assertThrows(IOException.class, () -> new RequestBody(node).writeTo(breaking));
        assertSame(refused, thrown);
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
    void aSurrogatePairSplitAcrossTheWritersBuffersStaysOneCharacter() {
        for (int at : java.util.stream.IntStream.concat(java.util.stream.IntStream.range(8_180, 8_200),
                java.util.stream.IntStream.range(16_370, 16_400)).toArray()) {
            ObjectNode node = Json.object();
            node.put("content", "x".repeat(at) + "\ud83d\ude00" + "y");
            same(node);
            node.put("content", "x".repeat(at) + "\ud800" + "y");
            same(node);
        }
    }
}
