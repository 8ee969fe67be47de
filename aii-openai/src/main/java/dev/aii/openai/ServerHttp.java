package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The backend's requests that are answered whole (the model list, the
 * context probes, token counts): HTTP/1.1 over a connection of their own,
 * the bearer token on every request, redirects followed within the server's
 * origin only. Each is one {@link HttpStream}, as the streamed chat requests
 * are, rather than the JDK's HTTP client: starting that client in a fresh
 * process (its selector thread, its logging, its TLS set-up) took longer
 * than the model server took to answer.
 */
final class ServerHttp implements AutoCloseable {

    /** A whole answer: its status, its body as text, and its {@code Retry-After} if any. */
    record Answer(int status, String body, Optional<String> retryAfter) {

        Answer {
            body = body == null ? "" : body;
            retryAfter = retryAfter == null ? Optional.empty() : retryAfter;
        }

        Answer(int status, String body) {
            this(status, body, Optional.empty());
        }

        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** No connection, or no answer, in time. */
    static final class Timeout extends IOException {

        private static final long serialVersionUID = 1L;

        private final boolean connecting;

        Timeout(boolean connecting, Throwable cause) {
            super(connecting ? "connection timed out" : "no answer in time", cause);
            this.connecting = connecting;
        }

        /** Whether it was the connection that took too long (else the answer). */
        boolean connecting() {
            return connecting;
        }
    }

    private final Optional<String> apiKey;
    private final Duration connectTimeout;

    ServerHttp(Duration connectTimeout, Optional<String> apiKey) {
        this.apiKey = apiKey;
        this.connectTimeout = connectTimeout;
    }

    /**
     * A GET, following redirects within the server's origin.
     *
     * @throws Redirects.Refused when the server redirects elsewhere
     * @throws Timeout when there was no connection within the connect time, or no answer within {@code timeout}
     */
    Answer get(URI uri, Duration timeout) throws IOException, InterruptedException {
        return send(uri, null, timeout);
    }

    /**
     * A POST of JSON, following redirects within the server's origin.
     *
     * @throws Redirects.Refused when the server redirects elsewhere
     * @throws Timeout when there was no connection within the connect time, or no answer within {@code timeout}
     */
    Answer post(URI uri, JsonNode body, Duration timeout) throws IOException, InterruptedException {
        return send(uri, new RequestBody(body), timeout);
    }

    private Answer send(URI uri, RequestBody body, Duration timeout) throws IOException, InterruptedException {
        URI target = uri;
        for (int hops = 0; ; hops++) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            try (HttpStream stream = HttpStream.interruptible()) {
                Map<String, String> headers = new LinkedHashMap<>();
                apiKey.ifPresent(key -> headers.put("Authorization", "Bearer " + key));
                if (body != null) {
                    headers.put("Content-Type", "application/json");
                }
                exchange(stream, body == null ? "GET" : "POST", target, headers, body, timeout);
                Optional<URI> next = Redirects.next(target, stream.status(), stream.header("Location"), hops);
                if (next.isEmpty()) {
                    return new Answer(stream.status(), readBody(stream), stream.header("Retry-After"));
                }
                target = next.get();
            } catch (ClosedByInterruptException e) {
                Thread.interrupted();
                InterruptedException interrupted = new InterruptedException("interrupted: " + target);
                interrupted.initCause(e);
                throw interrupted;
            }
        }
    }

    private void exchange(HttpStream stream, String method, URI target, Map<String, String> headers, RequestBody body,
            Duration timeout) throws IOException {
        try {
            stream.send(method, target, headers, body, connectTimeout);
        } catch (SocketTimeoutException e) {
            throw new Timeout(true, e);
        }
        try {
            stream.awaitHead(timeout);
        } catch (SocketTimeoutException e) {
            throw new Timeout(false, e);
        }
    }

    /** The whole body as text (invalid UTF-8 becomes U+FFFD); each read waits as long as the head could. */
    private static String readBody(HttpStream stream) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        try {
            int n;
            while ((n = stream.read(buffer)) >= 0) {
                all.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new Timeout(false, e);
        }
        return all.toString(StandardCharsets.UTF_8);
    }

    /** The headers of a streaming chat request: JSON in, events out, the bearer token. */
    Map<String, String> streamHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "text/event-stream");
        apiKey.ifPresent(key -> headers.put("Authorization", "Bearer " + key));
        return headers;
    }

    Duration connectTimeout() {
        return connectTimeout;
    }

    /** Nothing to release: every request has closed its own connection. */
    @Override
    public void close() {
    }
}
