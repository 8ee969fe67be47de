package dev.aii.openai;

import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

    /** How much of an error answer is read for its excerpt. */
    private static final int ERROR_BODY_LIMIT = 64 * 1024;

    /** How much of a non-streamed JSON answer is read. */
    private static final int JSON_BODY_LIMIT = 16 * 1024 * 1024;

    /** How long the body of an error status may take before the status alone is reported. */
    static final Duration ERROR_BODY_WAIT = Duration.ofSeconds(5);

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;
    private final IntSupplier contextSize;

    private final Object lock = new Object();
    private CompletableFuture<HttpResponse<BodyChannel>> pending;
    private BodyChannel body;
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
     * Sends {@code request} (JSON text) and reads the answer, text going to
     * {@code sink} as it arrives.
     *
     * @return the turn, or empty when cancelled
     * @throws ServerBusy when the server asks to come back later (429, 503)
     * @throws ModelException when the server refuses, fails, stalls or drops the connection
     */
    Optional<Turn> run(String request, TextSink sink, Supplier<String> newCallId, Situation situation)
            throws ModelException, ServerBusy {
        try {
            HttpResponse<BodyChannel> response = open(request, situation);
            if (response == null) {
                return Optional.empty();
            }
            BodyChannel channel = response.body();
            int status = response.statusCode();
            if (status < 200 || status >= 300) {
                refuse(response, situation);
                return Optional.empty();
            }
            TurnAssembler turn = new TurnAssembler(sink, contextSize);
            if (isJson(response)) {
                Optional<String> whole = readAll(channel, JSON_BODY_LIMIT, null, situation);
                if (whole.isEmpty()) {
                    return Optional.empty();
                }
                turn.accept(whole.get());
            } else if (!readEvents(channel, turn, situation)) {
                return Optional.empty();
            }
            if (cancelled) {
                return Optional.empty();
            }
            if (!turn.complete()) {
                throw dropped("the stream ended before [DONE]", null);
            }
            return Optional.of(turn.turn(newCallId));
        } finally {
            closeBody();
        }
    }

    /** Stops the request from any thread; {@link #run} then returns empty. */
    void cancel() {
        cancelled = true;
        CompletableFuture<HttpResponse<BodyChannel>> f;
        synchronized (lock) {
            f = pending;
        }
        if (f != null) {
            f.cancel(true);
        }
        closeBody();
    }

    /** Sends the request, following redirects within the server's origin; null when cancelled. */
    private HttpResponse<BodyChannel> open(String request, Situation situation) throws ModelException {
        URI uri = endpoints.chatCompletions();
        for (int hops = 0; ; hops++) {
            HttpResponse<BodyChannel> response = send(uri, request, situation);
            if (response == null) {
                return null;
            }
            Optional<URI> next;
            try {
                next = Redirects.next(response, hops);
            } catch (Redirects.Refused e) {
                throw refusedRedirect(e);
            }
            if (next.isEmpty()) {
                return response;
            }
            response.body().close();
            uri = next.get();
        }
    }

    /** The error for a redirect that is not followed, naming where it pointed. */
    static ModelException refusedRedirect(Redirects.Refused e) {
        return ModelException.internal("The model server redirected the request to " + dev.aii.policy.Render.escape(e.target())
                        + "\naii follows redirects only on the server's own host and port; set AII_BASE_URL to the server itself",
                e.getMessage(), null);
    }

    private HttpResponse<BodyChannel> send(URI uri, String request, Situation situation) throws ModelException {
        CompletableFuture<HttpResponse<BodyChannel>> future = http.stream(uri, request);
        synchronized (lock) {
            pending = future;
        }
        if (cancelled) {
            future.cancel(true);
        }
        try {
            HttpResponse<BodyChannel> response = future.get(timeouts.idle().toNanos(), TimeUnit.NANOSECONDS);
            synchronized (lock) {
                body = response.body();
            }
            if (cancelled) {
                closeBody();
                return null;
            }
            return response;
        } catch (CancellationException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return null;
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timedOut(situation);
        } catch (ExecutionException e) {
            if (cancelled) {
                return null;
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (ServerErrors.isUnreachable(cause) || cause instanceof HttpConnectTimeoutException) {
                throw ModelException.serverUnreachable(endpoints.base(), ServerErrors.describe(cause));
            }
            throw ModelException.internal("The chat request to the model server failed",
                    "POST " + uri + ": " + ServerErrors.describe(cause), cause);
        }
    }

    /** A status other than 2xx: read its body for 5 s at most, then throw what it means. */
    private void refuse(HttpResponse<BodyChannel> response, Situation situation) throws ModelException, ServerBusy {
        int status = response.statusCode();
        int size = contextSize.getAsInt();
        Duration wait = ERROR_BODY_WAIT.compareTo(timeouts.idle()) < 0 ? ERROR_BODY_WAIT : timeouts.idle();
        Optional<String> text;
        try {
            text = readAll(response.body(), ERROR_BODY_LIMIT, wait, situation);
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
        Optional<ServerBusy> busy = ServerBusy.of(status, response.headers(), error, reason, Clock.systemUTC());
        if (busy.isPresent()) {
            throw busy.get();
        }
        throw error;
    }

    /** Reads events until the end; false when cancelled. */
    private boolean readEvents(BodyChannel channel, TurnAssembler turn, Situation situation) throws ModelException {
        SseParser parser = new SseParser(new SseParser.Listener() {
            @Override
            public boolean onData(String data) throws ModelException {
                return !cancelled && turn.accept(data);
            }

            @Override
            public void onError(String value) throws ModelException {
                turn.acceptError(value);
            }
        });
        while (true) {
            BodyChannel.Item item;
            try {
                item = channel.next(timeouts.idle());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                return false;
            }
            if (cancelled || item == BodyChannel.Item.CLOSED) {
                return false;
            }
            if (item == null) {
                throw timedOut(situation);
            }
            if (item.isData()) {
                if (!parser.feed(item.bytes, 0, item.bytes.length)) {
                    return true;
                }
            } else if (item.isFailure()) {
                // Every byte before the failure has been read: what it completed still counts.
                if (!parser.flushCompleteLines() || turn.complete()) {
                    return true;
                }
                throw dropped("connection lost: " + ServerErrors.describe(item.failure), item.failure);
            } else {
                parser.finish();
                return true;
            }
        }
    }

    /**
     * The whole body, at most {@code limit} bytes; empty when cancelled or,
     * with a {@code deadline}, when the body is not whole by then. Without a
     * deadline each gap is bounded by the idle time.
     */
    private Optional<String> readAll(BodyChannel channel, int limit, Duration deadline, Situation situation)
            throws ModelException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long end = deadline == null ? 0 : System.nanoTime() + deadline.toNanos();
        while (out.size() < limit) {
            Duration wait = deadline == null ? timeouts.idle() : Duration.ofNanos(end - System.nanoTime());
            BodyChannel.Item item;
            try {
                item = wait.isNegative() || wait.isZero() ? null : channel.next(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                return Optional.empty();
            }
            if (cancelled || item == BodyChannel.Item.CLOSED) {
                return Optional.empty();
            }
            if (item == null) {
                if (deadline != null) {
                    return Optional.empty();
                }
                throw timedOut(situation);
            }
            if (item.isData()) {
                out.write(item.bytes, 0, item.bytes.length);
            } else if (item.isFailure()) {
                throw dropped("connection lost: " + ServerErrors.describe(item.failure), item.failure);
            } else {
                break;
            }
        }
        return Optional.of(out.toString(StandardCharsets.UTF_8));
    }

    /** No answer in time: before any text it did not answer; after some, it stopped. */
    private ModelException timedOut(Situation situation) {
        String waited = Timeouts.describe(timeouts.idle());
        if (!situation.textShown().getAsBoolean()) {
            return ModelException.internal("The model server did not answer within " + waited,
                    "no data for " + waited + " (AII_TIMEOUT)", null);
        }
        return ModelException.internal("The model server stopped responding in the middle of the answer",
                "no data for " + waited + " (AII_TIMEOUT)", null);
    }

    private static ModelException dropped(String detail, Throwable cause) {
        return ModelException.internal("The connection to the model server closed in the middle of the answer",
                detail, cause);
    }

    private void closeBody() {
        BodyChannel b;
        synchronized (lock) {
            b = body;
        }
        if (b != null) {
            b.close();
        }
    }

    private static boolean isJson(HttpResponse<?> response) {
        return response.headers().firstValue("Content-Type")
                .map(t -> t.toLowerCase(Locale.ROOT).startsWith("application/json"))
                .orElse(false);
    }
}
