package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/** Text in and out of the shim: caller buffers with snprintf semantics, asked again when too small. */
final class Text {

    private static final long FIRST_CAPACITY = 4096;

    /** A shim call that fills a buffer: writes at most capacity - 1 bytes and a NUL, the full length in length. */
    @FunctionalInterface
    interface Filler {
        int fill(MemorySegment buffer, long capacity, MemorySegment length);
    }

    /** A status and the text that came with it. */
    record Status(int code, String text) {
    }

    private Text() {
    }

    /** Runs {@code call}, again with a buffer of the length it asked for when the first was too small. */
    static Status call(Arena arena, Filler call) {
        MemorySegment length = arena.allocate(JAVA_LONG);
        long capacity = FIRST_CAPACITY;
        while (true) {
            MemorySegment buffer = arena.allocate(capacity);
            int code = call.fill(buffer, capacity, length);
            long needed = length.get(JAVA_LONG, 0);
            if (needed < capacity) {
                return new Status(code, string(buffer, needed));
            }
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("the shim has " + needed + " bytes of text to give");
            }
            capacity = needed + 1;
        }
    }

    /** The text a void shim call fills in. */
    static String fill(Arena arena, Filler call) {
        return call(arena, call).text();
    }

    /** {@code text} as UTF-8 bytes in {@code arena}, never a zero-length segment (so never a NULL pointer). */
    static MemorySegment utf8(Arena arena, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        MemorySegment segment = arena.allocate(Math.max(1, bytes.length));
        MemorySegment.copy(bytes, 0, segment, JAVA_BYTE, 0, bytes.length);
        return segment;
    }

    /** The byte length {@link #utf8} gives {@code text}. */
    static long length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * {@code text} as a NUL-terminated string.
     *
     * @throws IllegalArgumentException when {@code text} holds NUL, which C would read as its end
     */
    static MemorySegment cString(Arena arena, String text, String what) {
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a NUL character in " + what);
        }
        return arena.allocateFrom(text, StandardCharsets.UTF_8);
    }

    private static String string(MemorySegment buffer, long length) {
        return new String(buffer.asSlice(0, length).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }
}
