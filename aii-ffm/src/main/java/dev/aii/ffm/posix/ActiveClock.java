package dev.aii.ffm.posix;

/**
 * A command's own clock: {@link System#nanoTime()} less the time the command
 * spent suspended by aii (Ctrl-Z), so that its limits count only the time it
 * could run. Time aii itself was stopped without suspending the command (a
 * {@code kill -STOP} of aii) still counts, since the command ran meanwhile:
 * a limit that passed then is enforced as soon as aii runs again.
 * Thread-safe: suspension comes from another thread than the supervisor's.
 */
final class ActiveClock {

    private long suspendedTotal;
    private long suspendedSince;
    private boolean suspended;

    /** Now, in nanoseconds on this clock; frozen while suspended. */
    synchronized long now() {
        long t = System.nanoTime();
        return (suspended ? suspendedSince : t) - suspendedTotal;
    }

    synchronized boolean suspended() {
        return suspended;
    }

    /** Stops the clock (no effect when it is stopped already). */
    synchronized void suspend() {
        if (!suspended) {
            suspended = true;
            suspendedSince = System.nanoTime();
        }
    }

    /** Starts the clock again (no effect when it runs). */
    synchronized void resume() {
        if (suspended) {
            suspended = false;
            suspendedTotal += System.nanoTime() - suspendedSince;
        }
    }
}
