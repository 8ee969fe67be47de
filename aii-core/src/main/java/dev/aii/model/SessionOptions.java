package dev.aii.model;

import java.util.List;
import java.util.Optional;

/**
 * How to open a session.
 *
 * @param instructions the system instructions, if any
 * @param tools the tools the model may call (aii offers at most one)
 */
public record SessionOptions(Optional<String> instructions, List<ToolSpec> tools) {

    public SessionOptions {
        instructions = instructions == null ? Optional.empty() : instructions.filter(s -> !s.isEmpty());
        tools = List.copyOf(tools);
    }

    /** No instructions, no tools. */
    public static SessionOptions plain() {
        return new SessionOptions(Optional.empty(), List.of());
    }
}
