package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aii.model.ModelException;
import dev.aii.model.ToolSpec;
import java.util.List;
import java.util.Optional;

/** The JSON of chat requests: messages in the OpenAI format, tool definitions, the request itself. */
final class Messages {

    private Messages() {
    }

    static ObjectNode system(String text) {
        return Json.object().put("role", "system").put("content", text);
    }

    static ObjectNode user(String text) {
        return Json.object().put("role", "user").put("content", text);
    }

    static ObjectNode assistant(String text) {
        return Json.object().put("role", "assistant").put("content", text);
    }

    /**
     * The assistant's turn that asked for tools; its text, if it said
     * something, goes along. Each call's arguments are {@code arguments}' history form.
     */
    static ObjectNode assistantCalling(String text, List<ToolCall> calls, List<CallArguments> arguments) {
        ObjectNode message = Json.object().put("role", "assistant");
        if (!text.isEmpty()) {
            message.put("content", text);
        }
        ArrayNode array = message.putArray("tool_calls");
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            ObjectNode c = array.addObject().put("id", call.id()).put("type", "function");
            c.putObject("function").put("name", call.name()).put("arguments", arguments.get(i).forHistory());
        }
        return message;
    }

    static ObjectNode toolResult(String callId, String result) {
        return Json.object().put("role", "tool").put("tool_call_id", callId).put("content", result);
    }

    /**
     * The {@code tools} array for {@code specs}.
     *
     * @throws ModelException when a tool's parameter schema is not a JSON object
     */
    static ArrayNode tools(List<ToolSpec> specs) throws ModelException {
        ArrayNode array = Json.object().arrayNode();
        for (ToolSpec spec : specs) {
            Optional<JsonNode> schema = Json.parse(spec.parametersSchema()).filter(JsonNode::isObject);
            if (schema.isEmpty()) {
                throw ModelException.internal("The parameter schema of the " + spec.name() + " tool is not a JSON object",
                        ServerErrors.excerpt(spec.parametersSchema()), null);
            }
            ObjectNode function = array.addObject().put("type", "function").putObject("function");
            function.put("name", spec.name()).put("description", spec.description()).set("parameters", schema.get());
        }
        return array;
    }

    /** A streamed chat request: the instructions first, then the conversation, and the tools when there are any. */
    static ObjectNode request(String model, Optional<String> instructions, List<ObjectNode> conversation,
            ArrayNode tools) {
        ObjectNode request = Json.object().put("model", model).put("stream", true);
        ArrayNode messages = request.putArray("messages");
        instructions.ifPresent(text -> messages.add(system(text)));
        conversation.forEach(messages::add);
        if (!tools.isEmpty()) {
            request.set("tools", tools);
        }
        return request;
    }
}
