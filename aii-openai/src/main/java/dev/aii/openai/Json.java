package dev.aii.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
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
     * encoded as UTF-8 (so a lone surrogate becomes {@code ?}, as there). A
     * request body goes out as these bytes: they are encoded as the library
     * writes, without the text in between, which a 10 MB prompt would
     * otherwise occupy three more times (once as 20 MB of chars).
     */
    static byte[] writeBytes(JsonNode node) {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder(8 * 1024)) {
            try (Writer out = new OutputStreamWriter(bytes, StandardCharsets.UTF_8)) {
                MAPPER.writeValue(out, node);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            // a tree built in memory always serialises, and memory takes every byte
            throw new IllegalStateException(e);
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
