package dev.aii.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A tool call's arguments as the tool gets them and as the history carries
 * them back to the server. Servers parse every past call's arguments (llama.cpp
 * answers HTTP 500 to one that is not JSON), so the history holds the model's
 * own text only when it is a JSON object, and {@code {}} otherwise; the tool
 * then gets the text as it was, and its error says what is wrong with it.
 * Unpaired surrogates in strings become U+FFFD in both.
 *
 * @param forTool what the tool's handler gets
 * @param forHistory what goes back to the server, always a JSON object
 */
record CallArguments(String forTool, String forHistory) {

    static final String EMPTY_OBJECT = "{}";

    static CallArguments of(String modelText) {
        Optional<JsonNode> json = Json.parseWhole(modelText).filter(JsonNode::isObject);
        if (json.isEmpty()) {
            return new CallArguments(modelText, EMPTY_OBJECT);
        }
        if (!hasUnpairedSurrogate(json.get())) {
            return new CallArguments(modelText, modelText);
        }
        String repaired = Json.write(repair(json.get()));
        return new CallArguments(repaired, repaired);
    }

    private static boolean hasUnpairedSurrogate(JsonNode root) {
        Deque<JsonNode> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            JsonNode node = todo.pop();
            if (node.isTextual() && Surrogates.hasUnpaired(node.asText())) {
                return true;
            }
            if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    if (Surrogates.hasUnpaired(field.getKey())) {
                        return true;
                    }
                    todo.push(field.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(todo::push);
            }
        }
        return false;
    }

    /** A copy with every string (and field name) well formed; the depth is at most the parser's, so recursion is safe. */
    private static JsonNode repair(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(Surrogates.wellFormed(node.asText()));
        }
        if (node.isObject()) {
            ObjectNode copy = Json.object();
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            node.fields().forEachRemaining(fields::add);
            for (Map.Entry<String, JsonNode> field : fields) {
                copy.set(Surrogates.wellFormed(field.getKey()), repair(field.getValue()));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = Json.object().arrayNode();
            node.forEach(item -> copy.add(repair(item)));
            return copy;
        }
        return node;
    }
}
