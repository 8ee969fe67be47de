package dev.aii.cli.output;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task after a delay, on a thread of its own: what the {@link Console}
 * does by the clock (the timed flush of the answer, the waiting line). A task
 * takes the console's lock itself, so it is ordered with every other write.
 */
public interface Ticker extends AutoCloseable {

    /** Runs {@code task} once after {@code delay}. */
    void schedule(Duration delay, Runnable task);

    /** Drops what has not run yet; nothing runs after this. */
    @Override
    void close();

    /**
     * One daemon thread, made on the first task (so that the short commands,
     * which never schedule, start none).
     */
    static Ticker daemon() {
        return new Ticker() {
            private ScheduledExecutorService executor;
            private boolean closed;

            @Override
            public synchronized void schedule(Duration delay, Runnable task) {
                if (closed) {
                    return;
                }
                if (executor == null) {
                    executor = Executors.newSingleThreadScheduledExecutor(
                            runnable -> Thread.ofPlatform().daemon().name("aii-ticker").unstarted(runnable));
                }
                ScheduledFuture<?> ignored = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            }

            @Override
            public synchronized void close() {
                closed = true;
                if (executor != null) {
                    executor.shutdownNow();
                }
            }
        };
    }
}
