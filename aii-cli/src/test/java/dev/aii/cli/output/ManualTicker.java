package dev.aii.cli.output;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A clock for tests: tasks run only when the test moves time on, in the order they are due. */
public final class ManualTicker implements Ticker {

    private record Task(long at, long order, Runnable run) {
    }

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long order;
    private boolean closed;

    @Override
    public synchronized void schedule(Duration delay, Runnable task) {
        if (!closed) {
            tasks.add(new Task(now + delay.toMillis(), order++, task));
        }
    }

    /** Moves time on by {@code step}, running every task due meanwhile (and those they schedule), in order. */
    void advance(Duration step) {
        long target;
        synchronized (this) {
            target = now + step.toMillis();
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> t.at() <= target)
                        .min(Comparator.comparingLong(Task::at).thenComparingLong(Task::order)).orElse(null);
                if (next == null) {
                    now = target;
                    return;
                }
                tasks.remove(next);
                now = next.at();
            }
            next.run().run();   // outside the ticker's lock: the task takes the console's
        }
    }

    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    /** How many tasks wait to run. */
    synchronized int pending() {
        return tasks.size();
    }

    synchronized boolean closed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        closed = true;
        tasks.clear();
    }
}
