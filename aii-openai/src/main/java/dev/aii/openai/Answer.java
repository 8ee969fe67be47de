package dev.aii.openai;

import dev.aii.model.TextSink;
import java.time.Duration;
import java.util.Optional;

/**
 * One answer in progress: its sink (which notes whether text has been
 * shown), whether it was cancelled, the request under way, and how long it
 * may still wait for a busy server.
 */
final class Answer {

    private final TextSink sink;
    private final Object waiting = new Object();
    private volatile boolean cancelled;
    private volatile boolean shown;
    private volatile ChatStream stream;
    private final Patience patience;

    /** An answer that waits at most {@code patience} for a busy server, all waits together. */
    Answer(TextSink outer, Duration patience) {
        this.patience = new Patience(patience);
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
     * Waits as the busy server asked, within the answer's patience.
     *
     * @return true to ask again; false when waiting cannot help, the patience
     *     is spent, or the answer was cancelled during the wait
     */
    boolean await(ServerBusy busy) {
        Optional<Duration> next = cancelled ? Optional.empty() : patience.next(busy);
        if (next.isEmpty()) {
            return false;
        }
        Duration wait = next.get();
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
