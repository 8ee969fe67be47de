package dev.aii.openai;

import java.util.List;
import java.util.Optional;

/**
 * What one chat request produced.
 *
 * @param text all the text, as delivered to the sink
 * @param calls the tool calls, in the order the model made them
 * @param finishReason the {@code finish_reason} of the last chunk that had one
 */
record Turn(String text, List<ToolCall> calls, Optional<String> finishReason) {

    Turn {
        calls = List.copyOf(calls);
    }
}
