package dev.aii.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * A one-way switch that stops work in progress: once {@link #cancel()} is
 * called it stays cancelled, and every registered action runs once.
 */
public final class Cancellation {

    private final List<Runnable> actions = new ArrayList<>();
    private boolean cancelled;

    /** {@link #onCancel}, kept for this package's callers. */
    Registration register(Runnable action) {
        return onCancel(action);
    }

    /** Cancels and runs the registered actions (once). Safe from any thread, any number of times. */
    public void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = List.copyOf(actions);
            actions.clear();
        }
        toRun.forEach(Runnable::run);
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /**
     * Runs {@code action} on cancellation, or at once when already cancelled.
     *
     * @return a handle whose {@code close()} unregisters the action
     */
    public Registration onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                actions.add(action);
                return () -> {
                    synchronized (this) {
                        actions.remove(action);
                    }
                };
            }
        }
        action.run();
        return () -> { };
    }

    /** A registered action; closing it unregisters the action. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
