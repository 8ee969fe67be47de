package dev.aii.openai;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one chat request produced.
 *
 * @param text all the text, as delivered to the sink
 * @param calls the tool calls, in the order the model made them
 * @param finishReason the {@code finish_reason} of the last chunk that had one
 * @param tokensUsed prompt and answer tokens together, when the server said
 */
record Turn(String text, List<ToolCall> calls, Optional<String> finishReason, OptionalInt tokensUsed) {

    Turn {
        calls = List.copyOf(calls);
    }
}
