package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * One streaming chat request, from sending it to the last chunk. It can be
 * stopped from another thread ({@link #cancel()}), and stops itself when the
 * server goes silent for the idle time; both close the connection, which is
 * what unblocks the reading thread.
 */
final class ChatStream {

    /** How much of an error answer is read for its excerpt. */
    private static final int ERROR_BODY_LIMIT = 64 * 1024;

    /** How much of a non-streamed JSON answer is read. */
    private static final int JSON_BODY_LIMIT = 16 * 1024 * 1024;

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;
    private final IntSupplier contextSize;

    private final Object lock = new Object();
    private CompletableFuture<HttpResponse<InputStream>> pending;
    private InputStream body;
    private volatile boolean cancelled;
    private volatile boolean stalled;

    ChatStream(ServerHttp http, Endpoints endpoints, Timeouts timeouts, IntSupplier contextSize) {
        this.http = http;
        this.endpoints = endpoints;
        this.timeouts = timeouts;
        this.contextSize = contextSize;
    }

    /**
     * Sends {@code request} and reads the answer, text going to {@code sink}
     * as it arrives.
     *
     * @return the turn, or empty when cancelled
     * @throws ModelException when the server refuses, fails, stalls or drops the connection
     */
    Optional<Turn> run(JsonNode request, TextSink sink, Supplier<String> newCallId) throws ModelException {
        try (IdleWatchdog dog = IdleWatchdog.start(timeouts.idle(), this::stall)) {
            HttpResponse<InputStream> response = send(request);
            if (response == null) {
                return stopped();
            }
            dog.touch();
            InputStream in = response.body();
            int status = response.statusCode();
            if (status < 200 || status >= 300) {
                String answer = readAll(in, ERROR_BODY_LIMIT, dog);
                if (cancelled || stalled) {
                    return stopped();
                }
                throw ServerErrors.forChatStatus(status, answer, contextSize.getAsInt());
            }
            TurnAssembler turn = new TurnAssembler(sink, contextSize);
            if (isJson(response)) {
                turn.accept(readAll(in, JSON_BODY_LIMIT, dog));
            } else {
                readEvents(in, turn, dog);
            }
            if (cancelled || stalled) {
                return stopped();
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
        abort();
    }

    private HttpResponse<InputStream> send(JsonNode request) throws ModelException {
        CompletableFuture<HttpResponse<InputStream>> future = http.stream(endpoints.chatCompletions(), request);
        synchronized (lock) {
            pending = future;
        }
        if (cancelled || stalled) {
            future.cancel(true);
        }
        try {
            HttpResponse<InputStream> response = future.get();
            synchronized (lock) {
                body = response.body();
            }
            if (cancelled || stalled) {
                closeBody();
            }
            return response;
        } catch (CancellationException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return null;
        } catch (ExecutionException e) {
            if (cancelled || stalled) {
                return null;
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (ServerErrors.isUnreachable(cause) || cause instanceof HttpConnectTimeoutException) {
                throw ModelException.serverUnreachable(endpoints.base(), ServerErrors.describe(cause));
            }
            throw ModelException.internal("The chat request to the model server failed",
                    "POST " + endpoints.chatCompletions() + ": " + ServerErrors.describe(cause), cause);
        }
    }

    private void readEvents(InputStream in, TurnAssembler turn, IdleWatchdog dog) throws ModelException {
        SseParser parser = new SseParser(data -> !cancelled && turn.accept(data));
        byte[] buffer = new byte[8192];
        while (true) {
            int n;
            try {
                n = in.read(buffer);
            } catch (IOException e) {
                if (cancelled || stalled) {
                    return;
                }
                throw dropped("connection lost: " + ServerErrors.describe(e), e);
            }
            if (cancelled || stalled) {
                return;
            }
            if (n < 0) {
                parser.finish();
                return;
            }
            dog.touch();
            if (!parser.feed(buffer, 0, n)) {
                return;
            }
        }
    }

    private String readAll(InputStream in, int limit, IdleWatchdog dog) throws ModelException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while (out.size() < limit && (n = in.read(buffer)) >= 0) {
                dog.touch();
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            if (!cancelled && !stalled) {
                throw dropped("connection lost: " + ServerErrors.describe(e), e);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private Optional<Turn> stopped() throws ModelException {
        if (stalled && !cancelled) {
            throw ModelException.internal("The model server stopped responding in the middle of the answer",
                    "no data for " + Timeouts.describe(timeouts.idle()), null);
        }
        return Optional.empty();
    }

    private ModelException dropped(String detail, Throwable cause) {
        return ModelException.internal("The connection to the model server closed in the middle of the answer",
                detail, cause);
    }

    private void stall() {
        stalled = true;
        abort();
    }

    private void abort() {
        CompletableFuture<HttpResponse<InputStream>> f;
        synchronized (lock) {
            f = pending;
        }
        if (f != null) {
            f.cancel(true);
        }
        closeBody();
    }

    private void closeBody() {
        InputStream in;
        synchronized (lock) {
            in = body;
        }
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // closing is how the stream is stopped; a failure to close changes nothing
            }
        }
    }

    private static boolean isJson(HttpResponse<?> response) {
        return response.headers().firstValue("Content-Type")
                .map(t -> t.toLowerCase(Locale.ROOT).startsWith("application/json"))
                .orElse(false);
    }
}
