package dev.aii.openai;

import dev.aii.model.ModelException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A chat request the server turned away for now: 503 (llama.cpp loading its
 * model, Ollama busy) or 429. The session may wait and ask again; when it
 * does not, {@link #error()} is what to report.
 */
final class ServerBusy extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient ModelException error;
    private final transient Optional<Duration> retryAfter;
    private final boolean retryable;
    private final String reason;

    private ServerBusy(ModelException error, Optional<Duration> retryAfter, boolean retryable, String reason) {
        super(reason, null, false, false);
        this.error = error;
        this.retryAfter = retryAfter;
        this.retryable = retryable;
        this.reason = reason;
    }

    /**
     * The refusal with {@code status} when it is one to wait out: any 503,
     * and a 429 that says when to come back ({@code Retry-After}).
     */
    static Optional<ServerBusy> of(int status, Optional<String> retryAfterHeader, ModelException error, String reason,
            Clock clock) {
        if (status != 429 && status != 503) {
            return Optional.empty();
        }
        Optional<Duration> after = retryAfterHeader.flatMap(v -> retryAfter(v, clock));
        return Optional.of(new ServerBusy(error, after, status == 503 || after.isPresent(), reason));
    }

    /** {@code Retry-After}: a number of seconds, or an HTTP date; a date in the past means now. */
    static Optional<Duration> retryAfter(String value, Clock clock) {
        String v = value.strip();
        if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
            } catch (NumberFormatException e) {
                return Optional.of(Duration.ofDays(1));   // more digits than a long: longer than anyone waits
            }
        }
        try {
            ZonedDateTime when = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration d = Duration.between(clock.instant(), when.toInstant());
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    ModelException error() {
        return error;
    }

    /** What the server asked for, if anything. */
    Optional<Duration> retryAfter() {
        return retryAfter;
    }

    /** Whether waiting can help: a 429 without {@code Retry-After} says nothing about when. */
    boolean retryable() {
        return retryable;
    }

    /** {@code HTTP 503: Loading model}: for the note the user sees while aii waits. */
    String reason() {
        return reason;
    }
}
