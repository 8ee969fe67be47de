package dev.aii.openai;

import dev.aii.model.TextSink;
import java.time.Duration;

/**
 * One answer in progress: its sink (which notes whether text has been
 * shown), whether it was cancelled, the request under way, and how long it
 * may still wait for a busy server.
 */
final class Answer {

    /** How many times one answer asks a busy server again. */
    static final int MAX_RETRIES = 10;

    private final TextSink sink;
    private final Object waiting = new Object();
    private volatile boolean cancelled;
    private volatile boolean shown;
    private volatile ChatStream stream;
    private long patienceNanos;
    private int retries;

    /** An answer that waits at most {@code patience} for a busy server, all waits together. */
    Answer(TextSink outer, Duration patience) {
        this.patienceNanos = patience.toNanos();
        this.sink = new TextSink() {
            @Override
            public void accept(String piece) {
                if (!piece.isEmpty()) {
                    shown = true;
                }
                outer.accept(piece);
            }

            @Override
            public void cutOff() {
                outer.cutOff();
            }

            @Override
            public void waiting(String reason, Duration wait) {
                outer.waiting(reason, wait);
            }
        };
    }

    TextSink sink() {
        return sink;
    }

    boolean textShown() {
        return shown;
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Makes {@code next} the request under way; false when the answer is already cancelled. */
    boolean begin(ChatStream next) {
        stream = next;
        return !cancelled;
    }

    void cancel() {
        cancelled = true;
        ChatStream s = stream;
        if (s != null) {
            s.cancel();
        }
        synchronized (waiting) {
            waiting.notifyAll();
        }
    }

    /**
     * Waits as the busy server asked (its {@code Retry-After}, else 1 s,
     * doubling), within the answer's patience.
     *
     * @return true to ask again; false when waiting cannot help, the patience
     *     is spent, or the answer was cancelled during the wait
     */
    boolean await(ServerBusy busy) {
        if (!busy.retryable() || retries >= MAX_RETRIES || cancelled) {
            return false;
        }
        Duration wait = busy.retryAfter().orElse(Duration.ofSeconds(1L << Math.min(retries, 4)));
        if (wait.toNanos() > patienceNanos) {
            if (busy.retryAfter().isPresent()) {
                return false;       // the server asks for longer than aii waits: say so now
            }
            wait = Duration.ofNanos(patienceNanos);
        }
        if (wait.isZero() && patienceNanos <= 0) {
            return false;
        }
        retries++;
        patienceNanos -= wait.toNanos();
        sink.waiting(busy.reason(), wait);
        long end = System.nanoTime() + wait.toNanos();
        synchronized (waiting) {
            long left;
            while (!cancelled && (left = end - System.nanoTime()) > 0) {
                try {
                    waiting.wait(left / 1_000_000, (int) (left % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    cancel();
                }
            }
        }
        return !cancelled;
    }
}
