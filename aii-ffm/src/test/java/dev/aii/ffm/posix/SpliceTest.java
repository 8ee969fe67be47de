package dev.aii.ffm.posix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@code splice(2)} as the runner uses it past the output cap: bytes move
 * from a pipe into {@code /dev/null} without being read, the count it returns
 * is exact, what it did not move stays in the pipe in order, and an empty
 * pipe answers EAGAIN rather than blocking. Linux only: elsewhere the runner
 * reads and counts, and this test reports itself skipped.
 */
class SpliceTest {

    @Test
    void splicingIntoDevNullMovesExactlyWhatItSaysAndLeavesTheRestInOrder() {
        OsConstants os = OsConstants.forCurrentSystem(System.getProperty("os.name"), System.getProperty("os.arch"))
                .constants().orElseThrow();
        assumeTrue(!os.isMacos(), "splice is Linux's");
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(new LibC(os), arena);
            assertTrue(calls.hasSplice());
            int[] pipe = calls.pipeCloexec();
            int sink = calls.open("/dev/null", OsConstants.O_WRONLY | os.oCloexec());
            assertTrue(sink >= 0, calls.errnoText());
            try {
                MemorySegment data = arena.allocate(10_000);
                for (int i = 0; i < 10_000; i++) {
                    data.set(ValueLayout.JAVA_BYTE, i, (byte) i);
                }
                assertEquals(10_000, calls.write(pipe[1], data, 10_000));

                assertEquals(3_000, calls.splice(pipe[0], sink, 3_000, OsConstants.SPLICE_F_MOVE | OsConstants.SPLICE_F_NONBLOCK));
                MemorySegment rest = arena.allocate(10_000);
                assertEquals(7_000, calls.read(pipe[0], rest, 10_000));
                byte[] expected = new byte[7_000];
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = (byte) (i + 3_000);
                }
                assertArrayEquals(expected, rest.asSlice(0, 7_000).toArray(ValueLayout.JAVA_BYTE));

                assertEquals(-1, calls.splice(pipe[0], sink, 1 << 20, OsConstants.SPLICE_F_MOVE | OsConstants.SPLICE_F_NONBLOCK));
                assertEquals(os.errno(Errno.EAGAIN), calls.errno());

                calls.close(pipe[1]);
                pipe[1] = -1;
                assertEquals(0, calls.splice(pipe[0], sink, 1 << 20, OsConstants.SPLICE_F_MOVE | OsConstants.SPLICE_F_NONBLOCK));
            } finally {
                calls.close(pipe[0]);
                if (pipe[1] >= 0) {
                    calls.close(pipe[1]);
                }
                calls.close(sink);
            }
        }
    }
}
