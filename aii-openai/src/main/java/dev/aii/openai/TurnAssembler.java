package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.util.Optional;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Reads the chunks of one streamed chat completion: text goes to the sink at
 * once, tool-call fragments are merged, the finish reason is kept. Unknown
 * fields are ignored; {@code role} may come with every delta.
 */
final class TurnAssembler {

    private static final String DONE = "[DONE]";

    private final TextSink sink;
    private final IntSupplier contextSize;
    private final StringBuilder text = new StringBuilder();
    private final ToolCallAccumulator calls = new ToolCallAccumulator();
    private String finishReason;
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
        JsonNode chunk = Json.parse(data).orElseThrow(() -> ModelException.internal(
                "The model server sent a stream event that is not JSON", "event: " + ServerErrors.excerpt(data), null));
        JsonNode error = chunk.get("error");
        if (error != null && !error.isNull()) {
            throw ServerErrors.forStreamError(error, contextSize.getAsInt());
        }
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asInt(0) == 0) {
                acceptChoice(choice);
            }
        }
        return true;
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

    private void deliver(JsonNode piece) {
        Json.text(piece).ifPresent(s -> {
            text.append(s);
            sink.accept(s);
        });
    }

    /** Whether the stream said it was over: {@code [DONE]} or a finish reason. */
    boolean complete() {
        return done || finishReason != null;
    }

    boolean hasText() {
        return !text.isEmpty();
    }

    Turn turn(Supplier<String> newCallId) {
        return new Turn(text.toString(), calls.calls(newCallId), Optional.ofNullable(finishReason));
    }
}
