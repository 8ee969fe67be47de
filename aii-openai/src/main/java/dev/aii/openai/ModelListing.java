package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The answer of {@code GET <base>/models}: one entry per model, in the
 * server's order.
 *
 * @param entries each model's JSON object, with at least a non-empty {@code id}
 */
record ModelListing(List<JsonNode> entries) {

    /** What the variant names as the model before one is chosen. */
    static final String UNCHOSEN = "(no model chosen)";

    /** What the list of names says when the server lists none. */
    static final String NONE = "(none)";

    /** Fields some servers add to a model entry with its context window: apfel, vLLM, OpenRouter. */
    private static final List<String> CONTEXT_FIELDS = List.of("context_window", "max_model_len", "context_length");

    ModelListing {
        entries = List.copyOf(entries);
    }

    /** The listing in {@code body}, or empty when it is not an OpenAI model list. */
    static Optional<ModelListing> parse(String body) {
        Optional<JsonNode> json = Json.parse(body);
        if (json.isEmpty() || !json.get().path("data").isArray()) {
            return Optional.empty();
        }
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode entry : json.get().path("data")) {
            if (Json.text(entry.path("id")).isPresent()) {
                found.add(entry);
            }
        }
        return Optional.of(new ModelListing(found));
    }

    List<String> names() {
        return entries.stream().map(e -> e.path("id").asText()).toList();
    }

    /**
     * The model to use: {@code wanted} when listed (also when only
     * {@code <wanted>:latest} is, as Ollama names them), else the only model
     * when nothing is wanted.
     *
     * @throws ModelException {@code unavailable_model}, listing the names (and naming {@code --model} when
     *     nothing was wanted)
     */
    String choose(Optional<String> wanted, String baseUrl) throws ModelException {
        List<String> names = names();
        List<String> shown = names.isEmpty() ? List.of(NONE) : names;
        if (wanted.isPresent()) {
            String w = wanted.get();
            if (names.contains(w) || (!w.contains(":") && names.contains(w + ":latest"))) {
                return w;
            }
            String detail = names.isEmpty()
                    ? "the server lists no models"
                    : "the server lists " + names.size() + " model" + (names.size() == 1 ? "" : "s") + ", not " + w;
            throw ModelException.modelNotAvailable(w, baseUrl, shown, detail);
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        String detail = names.isEmpty()
                ? "the server lists no models"
                : "neither --model nor AII_MODEL is set and the server lists " + names.size() + " models";
        throw ModelException.noModelChosen(baseUrl, shown, detail);
    }

    /** The context window the entry of {@code model} states, when it states one. */
    OptionalInt contextSizeOf(String model) {
        for (JsonNode entry : entries) {
            String id = entry.path("id").asText();
            if (id.equals(model) || id.equals(model + ":latest")) {
                for (String field : CONTEXT_FIELDS) {
                    OptionalInt n = Json.positiveInt(entry.get(field));
                    if (n.isPresent()) {
                        return n;
                    }
                }
            }
        }
        return OptionalInt.empty();
    }
}
