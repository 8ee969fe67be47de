package dev.aii.model;

import java.util.Objects;

/**
 * A tool a session offers the model.
 *
 * @param name the tool's name, e.g. {@code run_command}
 * @param description what it does, for the model
 * @param parametersSchema the JSON Schema of its arguments object, as JSON text
 * @param handler what runs a call
 */
public record ToolSpec(String name, String description, String parametersSchema, ToolHandler handler) {

    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
        Objects.requireNonNull(handler, "handler");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("tool name must not be empty");
        }
    }
}
