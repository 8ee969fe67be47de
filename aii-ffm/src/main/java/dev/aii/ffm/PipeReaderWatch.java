package dev.aii.ffm;

import dev.aii.ffm.posix.Calls;
import dev.aii.ffm.posix.OsConstants;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Waits, on a thread of its own, until nothing reads the pipe that a file
 * descriptor writes to any more (its reader closed it or exited: the kernel
 * reports POLLERR or POLLHUP on the writing end), and can be stopped.
 *
 * <p>Stopping matters at exit: a thread blocked inside a native call holds
 * the JVM's exit back by about 300 ms, so {@link #close()} wakes the wait
 * through a pipe of its own and the thread leaves the native call at once.
 *
 * {@snippet :
 * try (PipeReaderWatch watch = Posix.watchPipeReader(1)) {
 *     Thread.ofPlatform().daemon().start(() -> {
 *         if (watch.await()) {
 *             System.err.println("the reader of stdout left");
 *         }
 *     });
 *     // ... write to stdout ...
 * }
 * }
 */
public final class PipeReaderWatch implements AutoCloseable {

    private final int fd;
    private final Calls calls;
    private final Arena arena;
    private final int wakeRead;
    private final int wakeWrite;
    private boolean closed;

    PipeReaderWatch(int fd, Calls calls, Arena arena, int[] wakePipe) {
        this.fd = fd;
        this.calls = calls;
        this.arena = arena;
        this.wakeRead = wakePipe[0];
        this.wakeWrite = wakePipe[1];
    }

    /**
     * Blocks until nothing reads the pipe any more (true), or until this
     * watch is closed, or at once when the descriptor is not open (false).
     * Called by one thread, once.
     */
    public boolean await() {
        try {
            while (true) {
                // No events asked for on fd: POLLERR and POLLHUP are always reported, POLLNVAL for a bad descriptor.
                int revents = calls.poll(fd, (short) 0, wakeRead, OsConstants.POLLIN, -1);
                if (revents < 0) {
                    return false;
                }
                short watched = (short) revents;
                short wake = (short) (revents >>> 16);
                if (wake != 0 || (watched & OsConstants.POLLNVAL) != 0) {
                    return false;
                }
                if ((watched & (OsConstants.POLLERR | OsConstants.POLLHUP)) != 0) {
                    return true;
                }
            }
        } finally {
            release();
        }
    }

    /** Ends a wait in {@link #await()}, at once; idempotent. */
    @Override
    public void close() {
        // Under the lock, so that the byte never goes to a descriptor release() closed (its number may be reused).
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            try (Arena one = Arena.ofConfined()) {
                MemorySegment b = one.allocate(ValueLayout.JAVA_BYTE);
                new Calls(Posix.libc(), one).write(wakeWrite, b, 1);
            }
        }
    }

    /** Closes the pipe and the memory once the waiting thread is done with them. */
    private void release() {
        synchronized (this) {
            closed = true;
            calls.close(wakeRead);
            calls.close(wakeWrite);
        }
        arena.close();
    }
}
