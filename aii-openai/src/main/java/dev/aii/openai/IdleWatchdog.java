package dev.aii.openai;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs an action once when {@link #touch()} has not been called for the
 * idle time: the HTTP client's own timeout ends when the headers arrive, but
 * a server can stall in the middle of a stream too.
 */
final class IdleWatchdog implements AutoCloseable {

    private final long idleNanos;
    private final Runnable onIdle;
    private final Thread thread;
    private volatile long last;
    private volatile boolean closed;

    private IdleWatchdog(Duration idle, Runnable onIdle) {
        this.idleNanos = idle.toNanos();
        this.onIdle = onIdle;
        this.last = System.nanoTime();
        this.thread = new Thread(this::watch, "aii-openai-idle-watchdog");
        this.thread.setDaemon(true);
    }

    static IdleWatchdog start(Duration idle, Runnable onIdle) {
        IdleWatchdog dog = new IdleWatchdog(idle, onIdle);
        dog.thread.start();
        return dog;
    }

    /** Data arrived: the idle time starts again. */
    void touch() {
        last = System.nanoTime();
    }

    private void watch() {
        while (!closed) {
            long left = last + idleNanos - System.nanoTime();
            if (left <= 0) {
                onIdle.run();
                return;
            }
            LockSupport.parkNanos(this, left);
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
