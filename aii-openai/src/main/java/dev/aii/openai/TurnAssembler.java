package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Reads the chunks of one streamed chat completion: text goes to the sink at
 * once, tool-call fragments are merged, the finish reason and the tokens
 * used are kept. Unknown fields are ignored; {@code role} may come with
 * every delta.
 */
final class TurnAssembler {

    private static final String DONE = "[DONE]";

    /**
     * How deep a chunk's own structure goes (choices, delta, tool_calls, a
     * call, its function): anything nested below is a value, kept as text
     * when the chunk is too deep to read.
     */
    private static final int CHUNK_STRUCTURE_DEPTH = 7;

    private final TextSink sink;
    private final IntSupplier contextSize;
    /** The text so far, piece by piece: a long answer is joined once, without a builder's doubling copies. */
    private final List<String> text = new ArrayList<>();
    private final ToolCallAccumulator calls = new ToolCallAccumulator();
    private String finishReason;
    private int tokensUsed = -1;
    /** A high surrogate that ended the last piece: its pair may open the next one. */
    private String heldBack = "";
    private boolean done;

    TurnAssembler(TextSink sink, IntSupplier contextSize) {
        this.sink = sink;
        this.contextSize = contextSize;
    }

    /** Takes one event's data; returns false at {@code [DONE]}. */
    boolean accept(String data) throws ModelException {
        if (data.strip().equals(DONE)) {
            done = true;
            return false;
        }
        if (data.isBlank()) {
            return true;
        }
        JsonNode chunk = parse(data);
        JsonNode error = chunk.get("error");
        if (error != null && !error.isNull()) {
            throw ServerErrors.forStreamError(error, contextSize.getAsInt());
        }
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asInt(0) == 0) {
                acceptChoice(choice);
            }
        }
        usage(chunk);
        return true;
    }

    /** An {@code error:} field or an error event: always the end of the answer. */
    void acceptError(String value) throws ModelException {
        Optional<JsonNode> json = Json.parse(value);
        JsonNode error = json.map(j -> j.has("error") && !j.get("error").isNull() ? j.get("error") : j)
                .orElseGet(() -> Json.object().textNode(value));
        throw ServerErrors.forStreamError(error, contextSize.getAsInt());
    }

    private static JsonNode parse(String data) throws ModelException {
        Optional<JsonNode> chunk = Json.parse(data);
        if (chunk.isEmpty() && DeepJson.depth(data) > Json.MAX_DEPTH) {
            chunk = Json.parse(DeepJson.flatten(data, CHUNK_STRUCTURE_DEPTH));
        }
        return chunk.orElseThrow(() -> ModelException.internal(
                "The model server sent a stream event that is not JSON", "event: " + ServerErrors.excerpt(data), null));
    }

    private void acceptChoice(JsonNode choice) {
        // a server that ignored "stream" sends a whole message instead of a delta
        JsonNode delta = choice.has("delta") ? choice.path("delta") : choice.path("message");
        deliver(delta.get("content"));
        deliver(delta.get("refusal"));
        for (JsonNode fragment : delta.path("tool_calls")) {
            calls.add(fragment);
        }
        Json.text(choice.get("finish_reason")).ifPresent(reason -> finishReason = reason);
    }

    /**
     * The tokens the request has used so far: the OpenAI {@code usage}, or
     * llama.cpp's {@code timings} (cached, prompt and predicted tokens).
     */
    private void usage(JsonNode chunk) {
        JsonNode usage = chunk.path("usage");
        OptionalInt total = Json.positiveInt(usage.get("total_tokens"));
        if (total.isEmpty()) {
            OptionalInt prompt = Json.positiveInt(usage.get("prompt_tokens"));
            OptionalInt completion = Json.positiveInt(usage.get("completion_tokens"));
            if (prompt.isPresent()) {
                total = OptionalInt.of(prompt.getAsInt() + completion.orElse(0));
            }
        }
        JsonNode timings = chunk.path("timings");
        if (total.isEmpty() && timings.isObject()) {
            long sum = timings.path("cache_n").asLong(0) + timings.path("prompt_n").asLong(0)
                    + timings.path("predicted_n").asLong(0);
            if (sum > 0 && sum <= Integer.MAX_VALUE) {
                total = OptionalInt.of((int) sum);
            }
        }
        if (total.isPresent()) {
            tokensUsed = Math.max(tokensUsed, total.getAsInt());
        }
    }

    private void deliver(JsonNode piece) {
        Json.text(piece).ifPresent(s -> {
            String shown = heldBack + s;
            heldBack = "";
            if (Character.isHighSurrogate(shown.charAt(shown.length() - 1))) {
                heldBack = shown.substring(shown.length() - 1);
                shown = shown.substring(0, shown.length() - 1);
            }
            shown = Surrogates.wellFormed(shown);
            if (!shown.isEmpty()) {
                text.add(shown);
                sink.accept(shown);
            }
        });
    }

    /** Whether the stream said it was over: {@code [DONE]} or a finish reason. */
    boolean complete() {
        return done || finishReason != null;
    }

    Turn turn(Supplier<String> newCallId) {
        if (!heldBack.isEmpty()) {
            heldBack = "";
            text.add(String.valueOf(Surrogates.REPLACEMENT));
            sink.accept(String.valueOf(Surrogates.REPLACEMENT));
        }
        String all = String.join("", text);
        text.clear();
        return new Turn(all, calls.calls(newCallId), Optional.ofNullable(finishReason),
                tokensUsed < 0 ? OptionalInt.empty() : OptionalInt.of(tokensUsed));
    }
}
