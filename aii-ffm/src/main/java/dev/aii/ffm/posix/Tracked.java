package dev.aii.ffm.posix;

import java.time.Duration;
import java.util.Set;

/**
 * A running command as {@link Lifetimes} knows it: the process that leads its
 * session and process group, when that process started, its clock and its
 * kill grace. {@code reaped} is guarded by the {@link Lifetimes} that made it:
 * until it is set, the leader is unreaped, so its process id, and with it the
 * group and session ids, cannot name any other process.
 */
final class Tracked {

    final int pid;
    /** The leader's start in clock ticks since boot; -1 when {@code /proc} could not say. */
    final long startTicks;
    final Duration killGrace;
    /** The children this process had just before the command was spawned: none of them is the command's. */
    final Set<Seen> before;
    final ActiveClock clock = new ActiveClock();
    /** {@link System#nanoTime()} just before the spawn (its clock's time then): the time limit counts from here. */
    final long started;
    boolean reaped;

    /** A process, named for good by its id and start. */
    record Seen(int pid, long startTicks) {
        static Seen of(ProcStat stat) {
            return new Seen(stat.pid(), stat.startTicks());
        }
    }

    Tracked(int pid, long startTicks, Duration killGrace, Set<Seen> before, long started) {
        this.pid = pid;
        this.started = started;
        this.startTicks = startTicks;
        this.killGrace = killGrace;
        this.before = Set.copyOf(before);
    }

    @Override
    public String toString() {
        return "command " + pid;
    }
}
