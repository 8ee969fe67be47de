package dev.aii.openai;

import java.util.Objects;

/**
 * One complete tool call of the model.
 *
 * @param id the call's id, given back with its result
 * @param name the tool's name
 * @param arguments the arguments exactly as the model produced them, valid JSON or not
 */
record ToolCall(String id, String name, String arguments) {

    ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
