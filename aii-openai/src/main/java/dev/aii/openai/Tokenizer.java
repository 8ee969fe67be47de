package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Counts tokens through llama.cpp's {@code POST /tokenize}. A server that
 * lacks it (a 4xx that means "no such endpoint or request", or an answer
 * without {@code tokens}) is remembered, so later counts cost nothing.
 */
final class Tokenizer {

    /** Statuses by which a server says it has no tokenizer of this shape. */
    private static final Set<Integer> UNSUPPORTED = Set.of(400, 404, 405, 422, 501);

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;
    private volatile boolean unsupported;

    Tokenizer(ServerHttp http, Endpoints endpoints, Timeouts timeouts) {
        this.http = http;
        this.endpoints = endpoints;
        this.timeouts = timeouts;
    }

    OptionalInt count(String text) throws ModelException {
        if (unsupported) {
            return OptionalInt.empty();
        }
        ServerHttp.Answer answer;
        try {
            answer = http.post(endpoints.tokenize(), Json.object().put("content", text), timeouts.tokenize());
        } catch (Redirects.Refused e) {
            throw ChatStream.refusedRedirect(e);
        } catch (IOException e) {
            throw ModelException.internal("Counting the prompt's tokens on the model server failed",
                    "POST " + endpoints.tokenize() + ": " + ServerErrors.describe(e, timeouts.tokenize()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ModelException.internal("Counting the prompt's tokens on the model server was interrupted",
                    "POST " + endpoints.tokenize() + ": interrupted", e);
        }
        if (UNSUPPORTED.contains(answer.status())) {
            unsupported = true;
            return OptionalInt.empty();
        }
        if (!answer.ok()) {
            throw ModelException.internal("Counting the prompt's tokens on the model server failed",
                    "POST " + endpoints.tokenize() + ": HTTP " + answer.status() + ": "
                            + ServerErrors.excerpt(answer.body()), null)
                    .withServerMessage(ServerErrors.serverMessage(answer.body()).orElse(null));
        }
        Optional<JsonNode> tokens = Json.parse(answer.body()).map(j -> j.get("tokens")).filter(JsonNode::isArray);
        if (tokens.isEmpty()) {
            unsupported = true;
            return OptionalInt.empty();
        }
        return OptionalInt.of(tokens.get().size());
    }
}
