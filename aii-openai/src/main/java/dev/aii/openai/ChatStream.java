package dev.aii.openai;

import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One streaming chat request, from sending it to the last chunk. The wait
 * for the answer and every gap in it are bounded by the idle time
 * ({@code AII_TIMEOUT}); every byte that arrives before the connection fails
 * is read and its text handed on. It can be stopped from another thread
 * ({@link #cancel()}).
 */
final class ChatStream {

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;
    private final IntSupplier contextSize;

    private volatile HttpStream current;
    private volatile boolean cancelled;

    ChatStream(ServerHttp http, Endpoints endpoints, Timeouts timeouts, IntSupplier contextSize) {
        this.http = http;
        this.endpoints = endpoints;
        this.timeouts = timeouts;
        this.contextSize = contextSize;
    }

    /** What the session knows about the answer so far, which decides how some failures read. */
    record Situation(BooleanSupplier textShown, boolean contextFull) {
    }

    /**
     * Sends {@code request} (JSON, UTF-8) and reads the answer, text going to
     * {@code sink} as it arrives.
     *
     * @return the turn, or empty when cancelled
     * @throws ServerBusy when the server asks to come back later (429, 503)
     * @throws ModelException when the server refuses, fails, stalls or drops the connection
     */
    Optional<Turn> run(RequestBody request, TextSink sink, Supplier<String> newCallId, Situation situation)
            throws ModelException, ServerBusy {
        try {
            HttpStream stream = open(request, situation);
            if (stream == null) {
                return Optional.empty();
            }
            int status = stream.status();
            if (status < 200 || status >= 300) {
                refuse(stream, situation);
                return Optional.empty();
            }
            AnswerBody body = new AnswerBody(timeouts, () -> cancelled);
            TurnAssembler turn = new TurnAssembler(sink, contextSize);
            ByteArrayOutputStream start = body.readStart(stream, situation);
            if (start == null) {
                return Optional.empty();
            }
            switch (BodyStart.of(start.toByteArray(), start.size())) {
                case JSON -> {
                    Optional<String> whole = body.readAll(stream, start, AnswerBody.JSON_BODY_LIMIT, null, situation);
                    if (whole.isEmpty()) {
                        return Optional.empty();
                    }
                    turn.accept(whole.get());
                }
                case EVENTS -> {
                    if (!body.readEvents(stream, start, turn, situation)) {
                        return Optional.empty();
                    }
                }
                case OTHER -> {
                    body.notAnAnswer(stream, start, situation);
                    return Optional.empty();
                }
            }
            if (cancelled) {
                return Optional.empty();
            }
            if (!turn.complete()) {
                throw AnswerBody.dropped("the stream ended before [DONE]", null);
            }
            return Optional.of(turn.turn(newCallId));
        } finally {
            HttpStream s = current;
            if (s != null) {
                s.close();
            }
        }
    }

    /** Stops the request from any thread; {@link #run} then returns empty. */
    void cancel() {
        cancelled = true;
        HttpStream s = current;
        if (s != null) {
            s.close();
        }
    }

    /**
     * Sends the request and waits for the answer's head, following redirects
     * within the server's origin; null when cancelled.
     */
    private HttpStream open(RequestBody body, Situation situation) throws ModelException {
        URI uri = endpoints.chatCompletions();
        for (int hops = 0; ; hops++) {
            HttpStream stream = send(uri, body, situation);
            if (stream == null) {
                return null;
            }
            Optional<URI> next;
            try {
                next = Redirects.next(uri, stream.status(), stream.header("Location"), hops);
            } catch (Redirects.Refused e) {
                throw refusedRedirect(e);
            }
            if (next.isEmpty()) {
                return stream;
            }
            stream.close();
            uri = next.get();
        }
    }

    /** The error for a redirect that is not followed, naming where it pointed. */
    static ModelException refusedRedirect(Redirects.Refused e) {
        return ModelException.internal("The model server redirected the request to "
                        + dev.aii.policy.Render.escape(e.target())
                        + "\naii follows redirects only on the server's own host and port; set AII_BASE_URL to the server itself",
                e.getMessage(), null);
    }

    private HttpStream send(URI uri, RequestBody body, Situation situation) throws ModelException {
        HttpStream stream = new HttpStream();
        current = stream;
        if (cancelled) {
            stream.close();
            return null;
        }
        // Writing the request cannot be bounded by the socket: a server that reads nothing is given the idle time.
        CompletableFuture<Void> sent = new CompletableFuture<>();
        CompletableFuture.delayedExecutor(timeouts.idle().toNanos(), TimeUnit.NANOSECONDS)
                .execute(() -> {
                    if (!sent.isDone()) {
                        stream.close();
                    }
                });
        try {
            stream.post(uri, http.streamHeaders(), body, timeouts.connect());
            sent.complete(null);
        } catch (IOException e) {
            sent.complete(null);
            if (cancelled) {
                return null;
            }
            if (ServerErrors.isUnreachable(e) || e instanceof java.net.SocketTimeoutException) {
                throw ModelException.serverUnreachable(endpoints.base(), "POST " + uri + ": " + ServerErrors.describe(e));
            }
            throw ModelException.internal("The chat request to the model server failed",
                    "POST " + uri + ": " + ServerErrors.describe(e), e);
        }
        try {
            stream.awaitHead(timeouts.idle());
            return cancelled ? null : stream;
        } catch (IOException e) {
            if (cancelled) {
                return null;
            }
            if (e instanceof SocketTimeoutException) {
                throw new AnswerBody(timeouts, () -> cancelled).timedOut(situation);
            }
            throw ModelException.internal("The chat request to the model server failed",
                    "POST " + uri + ": " + ServerErrors.describe(e), e);
        }
    }

    /** A status other than 2xx: read its body for 5 s at most, then throw what it means. */
    private void refuse(HttpStream stream, Situation situation) throws ModelException, ServerBusy {
        int status = stream.status();
        int size = contextSize.getAsInt();
        AnswerBody body = new AnswerBody(timeouts, () -> cancelled);
        Duration wait = body.errorWait();
        Optional<String> text;
        try {
            text = body.readAll(stream, new ByteArrayOutputStream(), AnswerBody.ERROR_BODY_LIMIT, wait, situation);
        } catch (ModelException e) {
            text = Optional.empty();    // the connection failed before the body was whole: the status tells
        }
        if (cancelled) {
            return;
        }
        ModelException error = text.isPresent()
                ? ServerErrors.forChatStatus(status, text.get(), size, situation.contextFull())
                : ServerErrors.forChatStatusWithoutBody(status, wait, size, situation.contextFull());
        String reason = "HTTP " + status + text.flatMap(ServerErrors::serverMessage)
                .map(m -> ": " + ServerErrors.excerpt(m)).orElse("");
        Optional<ServerBusy> busy = ServerBusy.of(status, stream.header("Retry-After"), error, reason,
                Clock.systemUTC());
        if (busy.isPresent()) {
            throw busy.get();
        }
        throw error;
    }
}
