package dev.aii.ffm.fm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/** Moving text between the Java heap and native memory. */
final class Memory {

    private Memory() {
    }

    /** A copy of {@code bytes} in {@code arena}; never a zero-length segment, so the pointer is never NULL. */
    static MemorySegment bytes(Arena arena, byte[] bytes) {
        MemorySegment segment = arena.allocate(Math.max(1, bytes.length));
        MemorySegment.copy(bytes, 0, segment, JAVA_BYTE, 0, bytes.length);
        return segment;
    }

    /**
     * {@code text} as a NUL-terminated UTF-8 string in {@code arena}.
     *
     * @throws IllegalArgumentException when {@code text} contains NUL, which C would read as its end
     */
    static MemorySegment cString(Arena arena, String text, String what) {
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a NUL character in " + what);
        }
        return arena.allocateFrom(text, StandardCharsets.UTF_8);
    }

    /** The {@code length} bytes at {@code pointer}, a pointer received from native code. */
    static byte[] read(MemorySegment pointer, long length) {
        if (length <= 0) {
            return new byte[0];
        }
        if (pointer.address() == 0) {
            throw new IllegalArgumentException("NULL pointer for " + length + " bytes");
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many bytes: " + length);
        }
        return pointer.reinterpret(length).toArray(JAVA_BYTE);
    }
}
