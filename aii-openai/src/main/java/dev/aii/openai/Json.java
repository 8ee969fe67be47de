package dev.aii.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;

/** The JSON tree helpers of the backend; the mapper is configured once and never changed. */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    /** The deepest nesting the parser reads; deeper text counts as not JSON. */
    static final int MAX_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** The tree of {@code text} when it is exactly one JSON value (nothing after it), else empty. */
    static Optional<JsonNode> parseWhole(String text) {
        try {
            JsonNode node = MAPPER.readerFor(JsonNode.class)
                    .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readValue(text);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** The tree of {@code text}, or empty when it is not JSON. */
    static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code node} as UTF-8 JSON, the same bytes as {@code write(node)}
     * encoded as UTF-8 (so a lone surrogate becomes {@code ?}, as there).
     */
    static byte[] writeBytes(JsonNode node) {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(8 * 1024)) {
            writeTo(node, bytes);
            return bytes.toByteArray();
        } catch (IOException e) {
            // a tree built in memory always serialises, and memory takes every byte
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes {@code node} onto {@code out} as {@link #writeBytes} gives it,
     * encoded as the library writes, so that no copy of the whole text is
     * made (a 10 MB prompt would otherwise be held again as bytes, and once
     * as 20 MB of chars). {@code out} is flushed, not closed.
     */
    static void writeTo(JsonNode node, OutputStream out) throws IOException {
        // Not closed by the library; and once a write has failed, nothing more is tried: the library, closing
        // after the failure, would flush what is buffered into the broken connection and hide its error.
        OutputStream open = new FilterOutputStream(out) {
            private boolean failed;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (!failed) {
                    failed = true;
                    out.write(b, off, len);
                    failed = false;
                }
            }

            @Override
            public void flush() throws IOException {
                if (!failed) {
                    failed = true;
                    out.flush();
                    failed = false;
                }
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
        // Buffered: the library writes the text between escapes (each line of a long text) in a write of its
        // own, and the encoder makes an object for every write it gets.
        try (Writer writer = new BufferedWriter(new OutputStreamWriter(open, StandardCharsets.UTF_8), 16 * 1024)) {
            MAPPER.writeValue(writer, node);
        }
    }

    /**
     * The number of bytes {@link #writeTo} writes for {@code node}: the
     * library writes the text into a counter of the UTF-8 bytes it encodes to,
     * a lone surrogate counting as the one byte of {@code ?}.
     */
    static long utf8Length(JsonNode node) {
        Utf8Counter counter = new Utf8Counter();
        try {
            MAPPER.writeValue(counter, node);
        } catch (IOException e) {
            // the counter takes every char
            throw new IllegalStateException(e);
        }
        return counter.bytes();
    }

    /** Counts the UTF-8 bytes of the chars written, as an encoder that replaces lone surrogates by ? makes them. */
    private static final class Utf8Counter extends Writer {
        private long bytes;
        private boolean highPending;

        @Override
        public void write(char[] text, int off, int len) {
            for (int i = off; i < off + len; i++) {
                add(text[i]);
            }
        }

        @Override
        public void write(String text, int off, int len) {
            for (int i = off; i < off + len; i++) {
                add(text.charAt(i));
            }
        }

        @Override
        public void write(int c) {
            add((char) c);
        }

        private void add(char c) {
            if (highPending) {
                highPending = false;
                if (Character.isLowSurrogate(c)) {
                    bytes += 4;
                    return;
                }
                bytes++;
            }
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                highPending = true;
            } else if (Character.isLowSurrogate(c)) {
                bytes++;
            } else {
                bytes += 3;
            }
        }

        long bytes() {
            return bytes + (highPending ? 1 : 0);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // a tree built in memory always serialises
            throw new IllegalStateException(e);
        }
    }

    /** The text at {@code node}, when it is a non-empty string. */
    static Optional<String> text(JsonNode node) {
        return node != null && node.isTextual() && !node.asText().isEmpty() ? Optional.of(node.asText()) : Optional.empty();
    }

    /** A positive integer at {@code node}, also when given as a string of digits. */
    static OptionalInt positiveInt(JsonNode node) {
        if (node == null) {
            return OptionalInt.empty();
        }
        if (node.isIntegralNumber() && node.canConvertToInt() && node.intValue() > 0) {
            return OptionalInt.of(node.intValue());
        }
        if (node.isTextual()) {
            return positiveInt(node.asText());
        }
        return OptionalInt.empty();
    }

    static OptionalInt positiveInt(String s) {
        try {
            int n = Integer.parseInt(s.strip());
            return n > 0 ? OptionalInt.of(n) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
