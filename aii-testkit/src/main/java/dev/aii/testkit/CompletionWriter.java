package dev.aii.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Renders one reply as a whole {@code chat.completion} object, for a client
 * that asked without {@code "stream": true} (the chat models of LangChain4j
 * and Spring AI do): the text pieces joined, every tool call whole, and the
 * finish reason of the stream.
 */
final class CompletionWriter {

    private static final long CREATED = 1_767_225_600L;

    private CompletionWriter() {
    }

    /**
     * The body, or empty when the reply has steps that only a stream can
     * carry (raw bytes, bare events) or does not end normally.
     */
    static Optional<String> whole(ObjectMapper mapper, Reply reply, String model, String id, Supplier<String> callIds) {
        if (reply.ending != Reply.Ending.DONE) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        ObjectNode message = mapper.createObjectNode().put("role", "assistant");
        ArrayNode calls = mapper.createArrayNode();
        String finish = null;
        for (Reply.Step step : reply.steps) {
            switch (step) {
                case Reply.Text t -> text.append(t.text());
                case Reply.Calls c -> c.calls().forEach(call -> {
                    ObjectNode node = calls.addObject();
                    if (call.id() == null) {
                        node.put("id", callIds.get());
                    } else if (!call.id().isEmpty()) {
                        node.put("id", call.id());
                    }
                    node.put("type", "function");
                    node.putObject("function").put("name", call.name()).put("arguments", call.arguments());
                });
                case Reply.Finish f -> finish = f.reason();
                case Reply.Pause p -> {
                    // a whole answer has no pauses in it: the time is spent before it is sent, by the caller
                }
                case Reply.Event e -> {
                    return Optional.empty();
                }
                case Reply.Hold h -> {
                    return Optional.empty();
                }
                case Reply.Raw r -> {
                    return Optional.empty();
                }
            }
        }
        if (text.isEmpty() && !calls.isEmpty()) {
            message.putNull("content");
        } else {
            message.put("content", text.toString());
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
        ObjectNode body = mapper.createObjectNode()
                .put("id", id).put("object", "chat.completion").put("created", CREATED).put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finish != null ? finish : calls.isEmpty() ? "stop" : "tool_calls");
        body.putObject("usage").put("prompt_tokens", 0).put("completion_tokens", 0).put("total_tokens", 0);
        try {
            return Optional.of(mapper.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
