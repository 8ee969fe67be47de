package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Asks the server for its context window through the native endpoints of
 * llama.cpp ({@code GET /props}) and Ollama ({@code POST /api/show}). A
 * server without them answers 404 at once; one that does not answer at all
 * costs the short discovery timeout.
 */
final class ContextProbe {

    private final ServerHttp http;
    private final Endpoints endpoints;
    private final Timeouts timeouts;

    /** The answer of {@code /props}, asked once: its context size, or empty when it is not llama.cpp's. */
    private OptionalInt props;

    ContextProbe(ServerHttp http, Endpoints endpoints, Timeouts timeouts) {
        this.http = http;
        this.endpoints = endpoints;
        this.timeouts = timeouts;
    }

    /**
     * llama.cpp: {@code default_generation_settings.n_ctx}, or a top-level
     * {@code n_ctx}. Asked once; later calls give the same answer.
     */
    synchronized OptionalInt llamaCpp() {
        if (props == null) {
            props = askProps();
        }
        return props;
    }

    /** Whether {@code /props} answered as llama.cpp's server does (asking it, the first time). */
    boolean isLlamaCpp() {
        return llamaCpp().isPresent();
    }

    private OptionalInt askProps() {
        try {
            ServerHttp.Answer answer = http.get(endpoints.props(), timeouts.discovery());
            return answer.ok() ? parseProps(answer.body()) : OptionalInt.empty();
        } catch (IOException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }

    /** Ollama: a {@code num_ctx} parameter of the model, else {@code model_info.<arch>.context_length}. */
    OptionalInt ollama(String model) {
        try {
            ServerHttp.Answer answer = http.post(endpoints.ollamaShow(), Json.object().put("model", model),
                    timeouts.discovery());
            return answer.ok() ? parseOllamaShow(answer.body()) : OptionalInt.empty();
        } catch (IOException e) {
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }

    static OptionalInt parseProps(String body) {
        Optional<JsonNode> json = Json.parse(body);
        if (json.isEmpty()) {
            return OptionalInt.empty();
        }
        OptionalInt slot = Json.positiveInt(json.get().path("default_generation_settings").get("n_ctx"));
        return slot.isPresent() ? slot : Json.positiveInt(json.get().get("n_ctx"));
    }

    /**
     * The {@code num_ctx} parameter wins because it is what the model runs
     * with; {@code context_length} is what it was trained for.
     */
    static OptionalInt parseOllamaShow(String body) {
        Optional<JsonNode> json = Json.parse(body);
        if (json.isEmpty()) {
            return OptionalInt.empty();
        }
        OptionalInt numCtx = numCtx(json.get().path("parameters").asText(""));
        if (numCtx.isPresent()) {
            return numCtx;
        }
        JsonNode info = json.get().path("model_info");
        String arch = info.path("general.architecture").asText("");
        if (!arch.isEmpty()) {
            OptionalInt n = Json.positiveInt(info.get(arch + ".context_length"));
            if (n.isPresent()) {
                return n;
            }
        }
        for (Map.Entry<String, JsonNode> field : info.properties()) {
            if (field.getKey().endsWith(".context_length")) {
                OptionalInt n = Json.positiveInt(field.getValue());
                if (n.isPresent()) {
                    return n;
                }
            }
        }
        return OptionalInt.empty();
    }

    /** {@code parameters} is Modelfile text: one {@code name value} pair a line. */
    private static OptionalInt numCtx(String parameters) {
        for (String line : parameters.split("\n")) {
            String[] words = line.strip().split("\\s+");
            if (words.length == 2 && words[0].equals("num_ctx")) {
                return Json.positiveInt(words[1]);
            }
        }
        return OptionalInt.empty();
    }
}
