package dev.aii.openai;

import dev.aii.model.ModelException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Reads the body of one chat answer: its start, then a stream of events, a
 * whole JSON answer, or what shows it is no answer; or the body of an error
 * status. Every wait is bounded ({@code AII_TIMEOUT}, or the 5 s of an error
 * body); a cancellation ends each read.
 */
final class AnswerBody {

    /** How much of an error answer is read for its excerpt. */
    static final int ERROR_BODY_LIMIT = 64 * 1024;

    /** How much of a non-streamed JSON answer is read. */
    static final int JSON_BODY_LIMIT = 16 * 1024 * 1024;

    /** How long the body of an error status may take before the status alone is reported. */
    static final Duration ERROR_BODY_WAIT = Duration.ofSeconds(5);

    /**
     * How long the rest of a stream may take once a finish reason came: a
     * usage chunk and {@code [DONE]} follow at once, and a server that keeps
     * the connection open after them must not hold a whole answer back.
     */
    static final Duration FINISH_GRACE = Duration.ofSeconds(1);

    private final Timeouts timeouts;
    private final BooleanSupplier cancelled;

    AnswerBody(Timeouts timeouts, BooleanSupplier cancelled) {
        this.timeouts = timeouts;
        this.cancelled = cancelled;
    }

    /** The wait for an error body: 5 s, or the idle time when that is shorter. */
    Duration errorWait() {
        return ERROR_BODY_WAIT.compareTo(timeouts.idle()) < 0 ? ERROR_BODY_WAIT : timeouts.idle();
    }

    /**
     * The body's first bytes, enough to tell what it is ({@link BodyStart});
     * null when cancelled.getAsBoolean(). Each wait is the idle time.
     */
    ByteArrayOutputStream readStart(HttpStream stream, ChatStream.Situation situation) throws ModelException {
        ByteArrayOutputStream start = new ByteArrayOutputStream();
        byte[] buffer = new byte[BodyStart.MAX];
        try {
            stream.setWait(timeouts.idle());
            while (!BodyStart.enough(start.toByteArray(), start.size())) {
                int n = stream.read(buffer);
                if (cancelled.getAsBoolean()) {
                    return null;
                }
                if (n < 0) {
                    break;
                }
                start.write(buffer, 0, n);
            }
        } catch (IOException e) {
            if (cancelled.getAsBoolean()) {
                return null;
            }
            if (start.size() == 0) {
                fail(e, situation);
            }
            // The stream keeps its failure: the next read throws it again, where the body's kind decides.
        }
        return start;
    }

    /**
     * A 200 whose body is no answer (a login page, compressed data, nothing):
     * {@code server_error}, with what arrived. Its body is read for 5 s at most.
     */
    void notAnAnswer(HttpStream stream, ByteArrayOutputStream start, ChatStream.Situation situation)
            throws ModelException {
        Duration wait = errorWait();
        String body;
        try {
            body = readAll(stream, start, ERROR_BODY_LIMIT, wait, situation)
                    .orElseGet(() -> start.toString(StandardCharsets.UTF_8));
        } catch (ModelException e) {
            body = start.toString(StandardCharsets.UTF_8);
        }
        if (cancelled.getAsBoolean()) {
            return;
        }
        if (start.size() == 0 && !stream.framed()) {
            // nothing before the connection closed: a connection lost, not an answer of nothing
            throw dropped("the stream ended before [DONE]", null);
        }
        byte[] bytes = start.toByteArray();
        String what = BodyStart.describe(bytes, bytes.length, stream.header("Content-Type"),
                stream.header("Content-Encoding"));
        String detail = "HTTP " + stream.status() + ", Content-Type: " + stream.header("Content-Type").orElse("(none)")
                + ": " + ServerErrors.excerpt(body);
        throw ModelException.serverFailed(what, stream.status(), detail)
                .withServerMessage(ServerErrors.serverMessage(body).orElse(null));
    }

    /** Reads events until the end, {@code start} first; false when cancelled.getAsBoolean(). */
    boolean readEvents(HttpStream stream, ByteArrayOutputStream start, TurnAssembler turn,
            ChatStream.Situation situation) throws ModelException {
        SseParser parser = new SseParser(new SseParser.Listener() {
            @Override
            public boolean onData(String data) throws ModelException {
                return !cancelled.getAsBoolean() && turn.accept(data);
            }

            @Override
            public void onError(String value) throws ModelException {
                turn.acceptError(value);
            }
        });
        byte[] buffer = new byte[16 * 1024];
        try {
            stream.setWait(timeouts.idle());
        } catch (IOException e) {
            return !cancelled.getAsBoolean() && fail(e, situation);
        }
        byte[] first = start.toByteArray();
        if (!parser.feed(first, 0, first.length)) {
            return true;
        }
        boolean finishing = false;
        while (true) {
            int n;
            try {
                if (!finishing && turn.complete()) {
                    finishing = true;
                    stream.setWait(FINISH_GRACE.compareTo(timeouts.idle()) < 0 ? FINISH_GRACE : timeouts.idle());
                }
                n = stream.read(buffer);
            } catch (IOException e) {
                if (cancelled.getAsBoolean()) {
                    return false;
                }
                if (finishing && e instanceof SocketTimeoutException) {
                    return true;    // the finish reason ended the answer; the connection is left as it is
                }
                // Every byte before the failure has been read: what it completed still counts.
                if (!parser.flushCompleteLines() || turn.complete()) {
                    return true;
                }
                return fail(e, situation);
            }
            if (cancelled.getAsBoolean()) {
                return false;
            }
            if (n < 0) {
                try {
                    parser.finish();
                } catch (ModelException e) {
                    if (!turn.complete()) {
                        throw e;
                    }
                    // a last line cut short after the server said it was done: the answer is whole
                }
                return true;
            }
            if (!parser.feed(buffer, 0, n)) {
                return true;
            }
        }
    }

    boolean fail(IOException e, ChatStream.Situation situation) throws ModelException {
        if (e instanceof SocketTimeoutException) {
            throw timedOut(situation);
        }
        throw dropped("connection lost: " + ServerErrors.describe(e), e);
    }

    /**
     * The whole body, at most {@code limit} bytes; empty when cancelled.getAsBoolean() or,
     * with a {@code deadline}, when the body is not whole by then. Without a
     * deadline each gap is bounded by the idle time.
     */
    Optional<String> readAll(HttpStream stream, ByteArrayOutputStream start, int limit, Duration deadline,
            ChatStream.Situation situation) throws ModelException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(start.toByteArray());
        long end = deadline == null ? 0 : System.nanoTime() + deadline.toNanos();
        byte[] buffer = new byte[16 * 1024];
        while (out.size() < limit) {
            int n;
            try {
                if (deadline != null) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        return Optional.empty();
                    }
                    stream.setWait(Duration.ofNanos(left));
                } else {
                    stream.setWait(timeouts.idle());
                }
                n = stream.read(buffer);
            } catch (IOException e) {
                if (cancelled.getAsBoolean() || (deadline != null && e instanceof SocketTimeoutException)) {
                    return Optional.empty();
                }
                fail(e, situation);
                return Optional.empty();
            }
            if (cancelled.getAsBoolean()) {
                return Optional.empty();
            }
            if (n < 0) {
                break;
            }
            out.write(buffer, 0, n);
        }
        return Optional.of(out.toString(StandardCharsets.UTF_8));
    }

    /** No answer in time: before any text it did not answer; after some, it stopped. */
    ModelException timedOut(ChatStream.Situation situation) {
        String waited = Timeouts.describe(timeouts.idle());
        if (!situation.textShown().getAsBoolean()) {
            return ModelException.serverSilent(waited, "no data for " + waited + " (AII_TIMEOUT)");
        }
        return ModelException.serverStalled("no data for " + waited + " (AII_TIMEOUT)");
    }

    static ModelException dropped(String detail, Throwable cause) {
        return ModelException.internal("The connection to the model server closed in the middle of the answer",
                detail, cause);
    }
}
