package dev.aii.springai;

import dev.aii.exec.AnswerScope;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.ToolTexts;
import dev.aii.model.ToolSpec;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * aii's {@code run_command} tool as a Spring AI {@link ToolCallback}: the
 * tool's name, description and JSON schema, and each call, with its
 * arguments as the model wrote them, handed to {@link RunCommandTool}: its
 * policy, the application's {@link dev.aii.exec.Approver}, its runner and
 * limits, and its result strings.
 *
 * {@snippet :
 * try (AnswerScope answer = tool.startAnswer()) {    // the 16-command limit and Ctrl-C of this answer
 *     String reply = chatClient.prompt("How much disk space is free?")
 *             .toolCallbacks(RunCommandToolCallback.of(answer))
 *             .call()
 *             .content();
 * }
 * }
 *
 * <p>{@link #of(AnswerScope)} gives the callback of one answer, right for
 * every way Spring AI calls tools (streaming too). {@link #of(RunCommandTool)}
 * gives one callback for all answers, e.g. as a default tool of a
 * {@code ChatClient}: each call then goes to the answer open on the calling
 * thread, which is where a blocking {@code call()} runs its tools; with no
 * answer open it runs nothing and throws {@link IllegalStateException}.
 */
public final class RunCommandToolCallback implements ToolCallback {

    private final ToolSpec spec;
    private final ToolDefinition definition;

    private RunCommandToolCallback(ToolSpec spec) {
        Objects.requireNonNull(spec, "spec");
        if (!spec.name().equals(ToolTexts.TOOL_NAME)) {
            throw new IllegalArgumentException("not the " + ToolTexts.TOOL_NAME + " tool: " + spec.name());
        }
        this.spec = spec;
        this.definition = ToolDefinition.builder()
                .name(spec.name())
                .description(spec.description())
                .inputSchema(spec.parametersSchema())
                .build();
    }

    /** The callback of one answer: every call goes to {@code answer}, from whatever thread. */
    public static RunCommandToolCallback of(AnswerScope answer) {
        return new RunCommandToolCallback(answer.spec());
    }

    /** One callback for all answers: each call goes to the answer open on the calling thread. */
    public static RunCommandToolCallback of(RunCommandTool tool) {
        return new RunCommandToolCallback(tool.spec());
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /** Runs one call; never throws for what the model asked (every outcome is a result string). */
    @Override
    public String call(String toolInput) {
        return spec.handler().call(toolInput);
    }

    /** The same as {@link #call(String)}: the answer, not the tool context, carries what a call needs. */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return call(toolInput);
    }
}
