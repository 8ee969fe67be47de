package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.LinkedHashMap;
import java.util.Map;

/** The backend's one HTTP client: HTTP/1.1, the bearer token on every request. */
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

    private final HttpClient client;
    private final Optional<String> apiKey;
    private final Duration connectTimeout;

    /** @param tls whether any URL asked will be {@code https://}: TLS is set up only then */
    ServerHttp(Duration connectTimeout, Optional<String> apiKey, boolean tls) {
        // HTTP/1.1: local servers speak nothing else, and the h2c upgrade dance confuses some of them
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                // Redirects are followed by hand, within the server's origin only: see Redirects.
                .followRedirects(HttpClient.Redirect.NEVER);
        if (!tls) {
            // Same scheme is part of the same origin, so such a client never goes to an https:// URL.
            builder.sslContext(new PlainHttpOnly()).sslParameters(PlainHttpOnly.PARAMETERS);
        }
        this.client = builder.build();
        this.apiKey = apiKey;
        this.connectTimeout = connectTimeout;
    }

    /** Whether {@code url} is an {@code https://} URL (any case), for the {@code tls} of the constructor. */
    static boolean isHttps(String url) {
        return url.strip().regionMatches(true, 0, "https:", 0, 6);
    }

    /**
     * A GET, following redirects within the server's origin.
     *
     * @throws Redirects.Refused when the server redirects elsewhere
     */
    Answer get(URI uri, Duration timeout) throws IOException, InterruptedException {
        return send(uri, null, timeout);
    }

    /**
     * A POST of JSON, following redirects within the server's origin.
     *
     * @throws Redirects.Refused when the server redirects elsewhere
     */
    Answer post(URI uri, JsonNode body, Duration timeout) throws IOException, InterruptedException {
        return send(uri, Json.write(body), timeout);
    }

    private Answer send(URI uri, String body, Duration timeout) throws IOException, InterruptedException {
        URI target = uri;
        for (int hops = 0; ; hops++) {
            HttpRequest.Builder b = request(target).timeout(timeout);
            if (body == null) {
                b.GET();
            } else {
                b.header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            }
            HttpResponse<String> response = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            Optional<URI> next = Redirects.next(response, hops);
            if (next.isEmpty()) {
                return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Retry-After"));
            }
            target = next.get();
        }
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

    private HttpRequest.Builder request(URI uri) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri);
        apiKey.ifPresent(key -> b.header("Authorization", "Bearer " + key));
        return b;
    }

    @Override
    public void close() {
        // shutdownNow, not close: close would wait for a stalled stream to end. It exists from Java 21 on;
        // before that the client has no way to stop, and its threads end when it is collected.
        try {
            HttpClient.class.getMethod("shutdownNow").invoke(client);
        } catch (NoSuchMethodException e) {
            // Java 17 to 20
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot shut down the HTTP client", e);
        }
    }
}
