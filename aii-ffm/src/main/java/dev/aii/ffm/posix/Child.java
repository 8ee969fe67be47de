package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One spawned child that leads its own process group. Its exit is observed
 * with {@code waitid(..., WNOWAIT)}, which leaves it a zombie: while it is
 * unreaped its process id, and so its process group id, cannot be reused, so
 * signalling the group can never hit an unrelated process ({@link Lifetimes}
 * does that, and orders it with the reaping). Only
 * {@link #reap()} collects it, with {@code waitpid} on this pid alone (never
 * {@code -1}, which would steal the JDK's own children).
 */
public final class Child {

    private final Calls calls;
    private final int pid;
    private final MemorySegment siginfo;
    private final MemorySegment status;
    private boolean exited;

    public Child(Calls calls, Arena arena, int pid) {
        this.calls = calls;
        this.pid = pid;
        this.siginfo = arena.allocate(calls.os().siginfoSize(), 8);
        this.status = arena.allocate(JAVA_INT);
    }

    public int pid() {
        return pid;
    }

    /** Whether the child has terminated (without reaping it). */
    public boolean hasExited() {
        if (exited) {
            return true;
        }
        exited = exited(calls, siginfo, pid);
        return exited;
    }

    /**
     * Whether the unreaped child {@code pid} has terminated, without reaping
     * it; {@code siginfo} is room for a {@code siginfo_t}.
     */
    static boolean exited(Calls calls, MemorySegment siginfo, int pid) {
        siginfo.fill((byte) 0);
        int rc = calls.waitid(pid, siginfo,
                OsConstants.WEXITED | OsConstants.WNOHANG | calls.os().wNowait());
        if (rc != 0) {
            throw new IllegalStateException("waitid for process " + pid + " failed: " + calls.errnoText());
        }
        int reportedPid = siginfo.get(JAVA_INT, calls.os().siginfoPidOffset());
        int code = siginfo.get(JAVA_INT, OsConstants.SIGINFO_CODE_OFFSET);
        // macOS may report a stopped child here despite WEXITED; only a termination counts.
        return reportedPid == pid
                && (code == OsConstants.CLD_EXITED || code == OsConstants.CLD_KILLED || code == OsConstants.CLD_DUMPED);
    }

    /**
     * Waits for the child and collects it.
     *
     * @return its exit status, or 128 + the signal that ended it
     */
    public int reap() {
        int rc = calls.waitpid(pid, status, 0);
        if (rc != pid) {
            throw new IllegalStateException("waitpid for process " + pid + " failed: " + calls.errnoText());
        }
        exited = true;
        int s = status.get(JAVA_INT, 0);
        int termsig = s & 0x7f;
        return termsig == 0 ? (s >> 8) & 0xff : 128 + termsig;
    }
}
