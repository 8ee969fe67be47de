package dev.aii.model;

/** Runs a tool call. */
@FunctionalInterface
public interface ToolHandler {

    /**
     * Handles one call and returns the text given back to the model. Must
     * not throw for expected failures: those are results too.
     *
     * @param argumentsJson the arguments exactly as the model produced them
     */
    String call(String argumentsJson);
}
