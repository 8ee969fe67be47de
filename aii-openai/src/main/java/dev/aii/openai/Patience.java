package dev.aii.openai;

import java.time.Duration;
import java.util.Optional;

/**
 * How long one answer (or one availability check) may still wait for a busy
 * server: at most the patience, all waits together, and at most
 * {@value #MAX_RETRIES} times.
 */
final class Patience {

    /** How many times a busy server is asked again. */
    static final int MAX_RETRIES = 10;

    private long leftNanos;
    private int retries;

    Patience(Duration patience) {
        this.leftNanos = patience.toNanos();
    }

    /**
     * The next wait for {@code busy}: what its {@code Retry-After} asks, else
     * 1 s, doubling; empty when waiting cannot help (a 429 that says nothing
     * of when), the server asks for longer than what is left, or nothing is left.
     */
    Optional<Duration> next(ServerBusy busy) {
        if (!busy.retryable() || retries >= MAX_RETRIES || leftNanos <= 0) {
            return Optional.empty();
        }
        Duration wait = busy.retryAfter().orElse(Duration.ofSeconds(1L << Math.min(retries, 4)));
        if (wait.toNanos() > leftNanos) {
            if (busy.retryAfter().isPresent()) {
                return Optional.empty();
            }
            wait = Duration.ofNanos(leftNanos);
        }
        retries++;
        leftNanos -= wait.toNanos();
        return Optional.of(wait);
    }
}
