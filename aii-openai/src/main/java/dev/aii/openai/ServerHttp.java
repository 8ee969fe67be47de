package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The backend's one HTTP client: HTTP/1.1, the bearer token on every request. */
final class ServerHttp implements AutoCloseable {

    /** A whole answer: its status and its body as text. */
    record Answer(int status, String body) {

        Answer {
            body = body == null ? "" : body;
        }

        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private final HttpClient client;
    private final Optional<String> apiKey;

    ServerHttp(Duration connectTimeout, Optional<String> apiKey) {
        // HTTP/1.1: local servers speak nothing else, and the h2c upgrade dance confuses some of them
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
        this.apiKey = apiKey;
    }

    Answer get(URI uri, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = request(uri).timeout(timeout).GET().build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), response.body());
    }

    Answer post(URI uri, JsonNode body, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = request(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), response.body());
    }

    /** Starts a streaming POST; the future completes when the headers have arrived. */
    CompletableFuture<HttpResponse<InputStream>> stream(URI uri, JsonNode body) {
        HttpRequest request = request(uri)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8))
                .build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
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
