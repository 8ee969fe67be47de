package dev.aii.openai;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds an OpenAI-compatible server on this machine when none is named, and
 * tells a base URL that lacks its {@code /v1} from a wrong one.
 *
 * {@snippet :
 * Optional<String> base = LocalServers.find(LocalServers.CANDIDATES);   // e.g. http://127.0.0.1:11434/v1
 * Optional<String> meant = LocalServers.withV1("http://localhost:11434", Optional.empty());
 * }
 */
public final class LocalServers {

    /** Where Ollama and llama.cpp's {@code llama-server} listen unless told otherwise, in the order they are tried. */
    public static final List<String> CANDIDATES = List.of("http://127.0.0.1:11434/v1", "http://127.0.0.1:8080/v1");

    /** How long a connection to a candidate may take: on loopback, a listening server accepts at once. */
    static final Duration CONNECT_LIMIT = Duration.ofMillis(200);

    /** How long a candidate that accepted may take to answer; something else on the port must not hold aii up. */
    static final Duration ANSWER_LIMIT = Duration.ofSeconds(2);

    private LocalServers() {
    }

    /**
     * The first of {@code bases} whose {@code GET <base>/models} answers with
     * an OpenAI model list (an empty list counts), each asked once with a
     * {@link #CONNECT_LIMIT} connect limit and no bearer token: the token in
     * the environment belongs to the server the environment names, not to
     * whatever listens on a well-known port.
     */
    public static Optional<String> find(List<String> bases) {
        Objects.requireNonNull(bases, "bases");
        try (ServerHttp http = new ServerHttp(CONNECT_LIMIT, Optional.empty())) {
            for (String base : bases) {
                if (listsModels(http, URI.create(base + "/models"))) {
                    return Optional.of(base);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code <base>/v1} when {@code <base>/models} answers 404 and
     * {@code <base>/v1/models} answers with a model list: the URL was given
     * without its {@code /v1}, as Ollama users often write it.
     */
    public static Optional<String> withV1(String baseUrl, Optional<String> apiKey) {
        String base = baseUrl.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        try (ServerHttp http = new ServerHttp(Timeouts.defaults().connect(), apiKey)) {
            ServerHttp.Answer plain = http.get(URI.create(base + "/models"), Timeouts.defaults().availability());
            if (plain.status() == 404 && listsModels(http, URI.create(base + "/v1/models"))) {
                return Optional.of(base + "/v1");
            }
        } catch (IOException | IllegalArgumentException e) {
            // Not reachable, or no URL at all: there is nothing to suggest.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    static boolean listsModels(ServerHttp http, URI models) {
        try {
            ServerHttp.Answer answer = http.get(models, ANSWER_LIMIT);
            return answer.ok() && ModelListing.parse(answer.body()).isPresent();
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
