package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.OutputCollector;
import dev.aii.exec.RunResult;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Watches one running child: drains its output pipe in constant memory, and
 * enforces the limits. Everything happens on the calling thread, which waits
 * in {@code poll(2)} for output with a short timeout so that it also notices
 * the deadline, the cancellation and the child's exit.
 *
 * <p>Timeout: SIGTERM to the group, SIGKILL after the kill grace.
 * Cancellation: SIGINT, then SIGTERM after the kill grace, then SIGKILL after
 * another. Each signal reaches what the command left outside its group too
 * (see {@link Lifetimes}). Once the child has exited, the pipe may stay open
 * for the pipe grace; then whatever is left of the group, and outside it, gets
 * SIGKILL and the child is reaped, so no process of the command outlives the
 * call. Times are on the command's {@link ActiveClock}: while the command is
 * suspended, its limits and graces stand still.
 */
final class Supervisor {

    /** How long one wait lasts at most: the delay before a cancellation or an exit behind a held pipe is seen. */
    private static final long SLICE_NANOS = 50_000_000L;
    /** One pipe's worth (64 KiB on Linux and macOS): what one read can return. */
    private static final int CHUNK = 64 * 1024;
    /** What one splice may move: as much as the pipe holds. */
    private static final long SPLICE_MAX = 1L << 20;
    /** Transfers in a row while the pipe has data, before the limits are looked at again (a few ms at most). */
    private static final int BURST = 256;
    /** Reads of what is buffered when the pipe grace ends: more than a full pipe (64 KiB on Linux and macOS). */
    private static final int MAX_FINAL_READS = 16;
    /** {@link #transfer} found the pipe empty. */
    private static final long EMPTY = -1;

    private enum Stop { NONE, TIMED_OUT, INTERRUPTED }

    private final Calls calls;
    private final Child child;
    private final Lifetimes lifetimes;
    private final Tracked tracked;
    private final Limits limits;
    private final Cancellation cancellation;
    private final MemorySegment buffer;
    private final byte[] heap = new byte[CHUNK];
    private final OutputCollector output;
    private int readEnd;
    /** Whether reads of the pipe return at once when it is empty, so that one wake-up can drain it. */
    private final boolean nonblocking;
    /** {@code /dev/null} for splice, once the cap is full (Linux); -1 when not open, -2 when splice is not used. */
    private int sink = -1;

    private Stop stop = Stop.NONE;
    private long[] signalTimes = new long[0];
    private int[] signals = new int[0];
    private int nextSignal;

    Supervisor(Calls calls, Arena arena, Child child, Lifetimes lifetimes, Tracked tracked, int readEnd, Limits limits,
            Cancellation cancellation) {
        this.calls = calls;
        this.child = child;
        this.lifetimes = lifetimes;
        this.tracked = tracked;
        this.readEnd = readEnd;
        this.limits = limits;
        this.cancellation = cancellation;
        this.buffer = arena.allocate(CHUNK, 16);
        this.output = new OutputCollector(limits.outputCap());
        // Only aii's end of the pipe: the child's end is another open file and stays as it was.
        int flags = calls.fcntl(readEnd, OsConstants.F_GETFL, 0);
        this.nonblocking = flags >= 0
                && calls.fcntl(readEnd, OsConstants.F_SETFL, flags | calls.os().oNonblock()) == 0;
        if (!calls.hasSplice()) {
            sink = -2;
        }
    }

    RunResult run() {
        try {
            supervise();
        } catch (RuntimeException | Error e) {
            // Leave nothing running behind a failure; the first problem is the one reported.
            try {
                closePipe();
                lifetimes.finish(tracked, child);
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        closePipe();
        int status = lifetimes.finish(tracked, child);
        return switch (stop) {
            case NONE -> new RunResult.Exited(status, output.snapshot());
            case TIMED_OUT -> new RunResult.TimedOut(output.snapshot());
            case INTERRUPTED -> new RunResult.Interrupted(output.snapshot());
        };
    }

    private void supervise() {
        ActiveClock clock = tracked.clock;
        // From the spawn, not from here: a JVM stopped in between must not give the command more time.
        long start = tracked.started;
        long deadline = start + nanos(limits.timeout());
        long killGrace = nanos(limits.killGrace());
        long pipeGrace = nanos(limits.pipeGrace());
        boolean exited = false;
        long exitedAt = 0;
        long idleWait = 1_000_000L;
        while (true) {
            long now = clock.now();
            if (!exited && child.hasExited()) {
                exited = true;
                exitedAt = now;
            }
            if (!exited) {
                if (stop == Stop.NONE && (cancellation.isCancelled() || Thread.currentThread().isInterrupted())) {
                    stop = Stop.INTERRUPTED;
                    schedule(new long[] {now, now + killGrace, now + 2 * killGrace},
                            new int[] {OsConstants.SIGINT, OsConstants.SIGTERM, OsConstants.SIGKILL});
                } else if (stop == Stop.NONE && now - deadline >= 0) {
                    stop = Stop.TIMED_OUT;
                    schedule(new long[] {now, now + killGrace}, new int[] {OsConstants.SIGTERM, OsConstants.SIGKILL});
                }
                while (nextSignal < signals.length && now - signalTimes[nextSignal] >= 0) {
                    lifetimes.signal(tracked, signals[nextSignal++]);
                }
            } else if (readEnd < 0 || now - exitedAt >= pipeGrace
                    || (stop == Stop.NONE && cancellation.isCancelled())) {
                drainBuffered();
                return;
            }

            long wait = SLICE_NANOS;
            if (!exited) {
                if (stop == Stop.NONE) {
                    wait = Math.min(wait, deadline - now);
                }
                if (nextSignal < signals.length) {
                    wait = Math.min(wait, signalTimes[nextSignal] - now);
                }
                if (readEnd < 0) {
                    // The pipe is closed but the child still runs (usually for a moment, as it exits):
                    // look again soon, then less and less often.
                    wait = Math.min(wait, idleWait);
                    idleWait = Math.min(idleWait * 2, SLICE_NANOS);
                }
            } else {
                wait = Math.min(wait, exitedAt + pipeGrace - now);
            }
            int millis = (int) ((Math.max(0, wait) + 999_999) / 1_000_000);
            short revents = calls.poll(readEnd, OsConstants.POLLIN, millis);
            if (revents < 0) {
                throw new IllegalStateException("poll failed: " + calls.errnoText());
            }
            if (readEnd >= 0 && revents != 0) {
                drainBurst();
            }
        }
    }

    /**
     * Takes what already waits in the pipe without waiting for more: output the
     * command wrote just before it exited is kept even with no pipe grace. Bounded,
     * since a process still holding the pipe could write forever.
     */
    private void drainBuffered() {
        for (int i = 0; i < MAX_FINAL_READS && readEnd >= 0; i++) {
            short revents = calls.poll(readEnd, OsConstants.POLLIN, 0);
            if (revents <= 0 || transfer() == EMPTY) {
                return;
            }
        }
    }

    /**
     * After poll reported the pipe ready: transfers until it is empty, up to
     * {@link #BURST} times, so that a fast writer costs one wake-up and one
     * look at the limits per burst rather than per pipe's worth.
     */
    private void drainBurst() {
        for (int i = 0; i < BURST && readEnd >= 0; i++) {
            if (transfer() == EMPTY || !nonblocking) {
                return;
            }
        }
    }

    /**
     * One transfer from the pipe: up to the cap, a read whose bytes are kept;
     * past it only counting is needed, so on Linux the bytes are spliced into
     * {@code /dev/null} without being copied, and elsewhere read into the one
     * native buffer and counted.
     *
     * @return the bytes taken, 0 at the end of the output (the pipe is then
     *         closed, as after an error), or {@link #EMPTY}
     */
    private long transfer() {
        if (output.full() && sink != -2) {
            long moved = splice();
            if (moved != -2) {
                return moved;
            }
        }
        long n = calls.read(readEnd, buffer, CHUNK);
        if (n < 0 && calls.errno() == calls.os().errno(Errno.EAGAIN)) {
            return EMPTY;
        }
        if (n <= 0) {
            closePipe();
            return 0;
        }
        int count = (int) n;
        // Once the cap is full the bytes are only counted: skip the copy into the heap.
        if (output.full()) {
            output.count(count);
        } else {
            MemorySegment.copy(buffer, JAVA_BYTE, 0, heap, 0, count);
            output.accept(heap, 0, count);
        }
        return count;
    }

    /** Splices what the pipe holds into {@code /dev/null}; -2 when splice cannot be used (then reads do). */
    private long splice() {
        if (sink == -1) {
            sink = calls.open("/dev/null", OsConstants.O_WRONLY | calls.os().oCloexec());
            if (sink < 0) {
                sink = -2;
                return -2;
            }
        }
        long n = calls.splice(readEnd, sink, SPLICE_MAX, OsConstants.SPLICE_F_MOVE | OsConstants.SPLICE_F_NONBLOCK);
        if (n > 0) {
            output.count(n);
            return n;
        }
        if (n == 0) {
            closePipe();
            return 0;
        }
        if (calls.errno() == calls.os().errno(Errno.EAGAIN)) {
            return EMPTY;
        }
        // A kernel or sandbox that refuses splice here (EINVAL, ENOSYS, EPERM): read and count instead.
        closeSink();
        sink = -2;
        return -2;
    }

    private void schedule(long[] times, int[] sigs) {
        signalTimes = times;
        signals = sigs;
        nextSignal = 0;
    }

    private void closePipe() {
        if (readEnd >= 0) {
            calls.close(readEnd);
            readEnd = -1;
        }
        closeSink();
    }

    private void closeSink() {
        if (sink >= 0) {
            calls.close(sink);
            sink = -1;
        }
    }

    /** A duration in nanoseconds, saturated so that deadlines never overflow. */
    private static long nanos(Duration d) {
        try {
            return Math.min(d.toNanos(), Long.MAX_VALUE / 8);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 8;
        }
    }
}
