package dev.aii.openai;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the backend waits for the server.
 *
 * @param connect opening a connection
 * @param availability the answer to {@code GET <base>/models}
 * @param discovery each context-size probe ({@code /props}, {@code /api/show}); short, so that a
 *     server lacking them does not slow startup
 * @param tokenize one {@code /tokenize} call of the pre-flight check
 * @param idle how long a chat request may wait for the server's first byte, and any later gap ({@code AII_TIMEOUT})
 * @param patience how long one answer may wait, all waits together, for a server that is busy (429, 503)
 */
record Timeouts(Duration connect, Duration availability, Duration discovery, Duration tokenize, Duration idle,
        Duration patience) {

    Timeouts {
        positive(connect, "connect");
        positive(availability, "availability");
        positive(discovery, "discovery");
        positive(tokenize, "tokenize");
        positive(idle, "idle");
        positive(patience, "patience");
    }

    /**
     * The values of the command line contract: 5 s to answer {@code /models},
     * 120 s for the first byte and each gap, 30 s of waiting for a busy server.
     */
    static Timeouts defaults() {
        return new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(3),
                Duration.ofSeconds(10), Duration.ofSeconds(OpenAiConfig.DEFAULT_TIMEOUT_SECONDS), Duration.ofSeconds(30));
    }

    /** A copy with another idle timeout. */
    Timeouts withIdle(Duration newIdle) {
        return new Timeouts(connect, availability, discovery, tokenize, newIdle, patience);
    }

    /** A copy with another availability timeout. */
    Timeouts withAvailability(Duration newAvailability) {
        return new Timeouts(connect, newAvailability, discovery, tokenize, idle, patience);
    }

    /** A copy with another patience for busy servers. */
    Timeouts withPatience(Duration newPatience) {
        return new Timeouts(connect, availability, discovery, tokenize, idle, newPatience);
    }

    /** {@code 120 s} or {@code 250 ms}: how a duration reads in a detail. */
    static String describe(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " timeout must be positive: " + d);
        }
    }
}
