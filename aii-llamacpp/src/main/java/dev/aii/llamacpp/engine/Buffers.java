package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * The native memory of the calls made once a token (sample, feed, decode),
 * allocated once per handle instead of once per call: a text buffer for what
 * the shim gives back, one for what it is given, a length and a token. Used by
 * one thread at a time (the one answering); closed with its handle.
 */
final class Buffers implements AutoCloseable {

    private static final long OUT = 4096;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment out = arena.allocate(OUT);
    private final MemorySegment length = arena.allocate(JAVA_LONG);
    private final MemorySegment token = arena.allocate(JAVA_INT);
    private MemorySegment in = arena.allocate(OUT);

    MemorySegment out() {
        return out;
    }

    long outCapacity() {
        return OUT;
    }

    MemorySegment length() {
        return length;
    }

    MemorySegment token() {
        return token;
    }

    /** {@code bytes} in the input buffer, grown when it is too small. */
    MemorySegment in(byte[] bytes) {
        if (bytes.length > in.byteSize()) {
            in = arena.allocate(Math.max(bytes.length, 2 * in.byteSize()));
        }
        MemorySegment.copy(bytes, 0, in, JAVA_BYTE, 0, bytes.length);
        return in;
    }

    /** The text a call left in the output buffer, when it fit; else empty, to ask again with {@link Text}. */
    java.util.Optional<String> text() {
        long n = length.get(JAVA_LONG, 0);
        if (n >= OUT) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new String(out.asSlice(0, n).toArray(JAVA_BYTE), StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        arena.close();
    }
}
