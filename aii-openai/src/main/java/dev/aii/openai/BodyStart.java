package dev.aii.openai;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a chat request's 200 answer is, told by its first line rather than by
 * its {@code Content-Type}, which servers and proxies get wrong both ways: a
 * stream of events, one whole JSON answer, or something that is no answer (a
 * login page, compressed bytes aii did not ask for, nothing at all).
 */
final class BodyStart {

    /** How much of the body's start is read to tell what it is. */
    static final int MAX = 4096;

    /** The kinds of body. */
    enum Kind { EVENTS, JSON, OTHER }

    /** A line of {@code text/event-stream}: a comment, or a field it defines, with or without a value. */
    private static final Pattern EVENT_LINE = Pattern.compile("(:|(data|event|id|retry|error)(:|\\s*$)).*",
            Pattern.DOTALL);

    private static final java.util.List<String> FIELDS = java.util.List.of("data", "event", "id", "retry", "error");

    private BodyStart() {
    }

    /**
     * Whether {@code length} bytes are enough to tell: a line ended after the
     * leading white space, or {@link #MAX} bytes.
     */
    static boolean enough(byte[] start, int length) {
        if (length >= MAX) {
            return true;
        }
        int first = firstSignificant(start, length);
        for (int i = first; i < length; i++) {
            if (start[i] == '\n' || start[i] == '\r') {
                return true;
            }
        }
        // a JSON answer tells itself by its first byte
        return first < length && start[first] == '{';
    }

    /** The kind of a body that starts with {@code length} bytes of {@code start} (all of it when shorter). */
    static Kind of(byte[] start, int length) {
        int first = firstSignificant(start, length);
        if (first >= length) {
            return Kind.OTHER;
        }
        if (start[first] == '{') {
            return Kind.JSON;
        }
        int end = first;
        while (end < length && start[end] != '\n' && start[end] != '\r') {
            end++;
        }
        String line = new String(start, first, end - first, StandardCharsets.UTF_8);
        if (EVENT_LINE.matcher(line).matches()) {
            return Kind.EVENTS;
        }
        // a first line cut short (the connection broke in it) that may still become a field name
        boolean cut = end == length;
        return cut && FIELDS.stream().anyMatch(f -> f.startsWith(line)) ? Kind.EVENTS : Kind.OTHER;
    }

    /**
     * What a body that is no answer is, for {@code The model server failed:
     * <what> (HTTP 200)}: {@code an empty answer}, {@code compressed data
     * (<encoding>) instead of a chat completion}, {@code an HTML page instead
     * of a chat completion}, or the content type's name.
     */
    static String describe(byte[] start, int length, Optional<String> contentType, Optional<String> encoding) {
        int first = firstSignificant(start, length);
        if (first >= length) {
            return "an empty answer";
        }
        Optional<String> coding = encoding.map(e -> e.strip().toLowerCase(Locale.ROOT))
                .filter(e -> !e.isEmpty() && !e.equals("identity"));
        if (coding.isPresent() || (length >= 2 && (start[0] & 0xff) == 0x1f && (start[1] & 0xff) == 0x8b)) {
            return "compressed data (" + coding.map(ServerErrors::excerpt).orElse("gzip")
                    + ") instead of a chat completion";
        }
        String type = contentType.map(t -> t.strip().toLowerCase(Locale.ROOT)).orElse("");
        if (start[first] == '<' || type.startsWith("text/html")) {
            return "an HTML page instead of a chat completion";
        }
        return (type.isEmpty() ? "data of no stated type" : ServerErrors.excerpt(type.split(";", 2)[0].strip()))
                + " instead of a chat completion";
    }

    /** The index of the first byte after a byte order mark and white space. */
    private static int firstSignificant(byte[] start, int length) {
        int i = 0;
        if (length >= 3 && (start[0] & 0xff) == 0xef && (start[1] & 0xff) == 0xbb && (start[2] & 0xff) == 0xbf) {
            i = 3;
        }
        while (i < length && (start[i] == ' ' || start[i] == '\t' || start[i] == '\n' || start[i] == '\r')) {
            i++;
        }
        return i;
    }
}
