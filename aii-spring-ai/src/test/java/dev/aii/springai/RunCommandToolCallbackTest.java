package dev.aii.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.Approver;
import dev.aii.exec.Platform;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.ToolTexts;
import dev.aii.policy.Builtins;
import dev.aii.policy.ExecPolicy;
import dev.aii.testkit.RecordingExecOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.definition.ToolDefinition;

class RunCommandToolCallbackTest {

    /** What {@code pwd} answers: commands run in this JVM's working directory. */
    private static final String PWD = "exit 0\n" + Path.of("").toAbsolutePath() + "\n";
    private static final String RUN_PWD = "{\"executable\":\"pwd\",\"arguments\":[]}";

    private final RecordingExecOutput output = new RecordingExecOutput();
    private final List<String> asked = new ArrayList<>();
    private final RunCommandTool tool = RunCommandTool.builder()
            .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"),
                    Path.of("/"))))
            .approver((request, cancellation) -> {
                asked.add(request.command().display());
                return Approver.Answer.NO;
            })
            .runner(new ProcessBuilderRunner())
            .output(output)
            .platform(Platform.OTHER)
            .build();

    @Test
    void theDefinitionIsRunCommandWithAiisTextsAndSchema() {
        ToolDefinition definition = RunCommandToolCallback.of(tool).getToolDefinition();
        assertEquals("run_command", definition.name());
        assertEquals(ToolTexts.toolDescription(Platform.OTHER), definition.description());
        assertEquals(ToolTexts.parametersSchema(), definition.inputSchema());
        assertFalse(RunCommandToolCallback.of(tool).getToolMetadata().returnDirect(),
                "the result goes back to the model, not to the user");
        try (AnswerScope answer = tool.startAnswer()) {
            assertEquals(definition, RunCommandToolCallback.of(answer).getToolDefinition());
        }
    }

    @Test
    void aCallOnTheAllowlistRunsAndOneOffItIsAskedAboutAndDenied() {
        try (AnswerScope answer = tool.startAnswer()) {
            RunCommandToolCallback callback = RunCommandToolCallback.of(answer);
            assertEquals(PWD, callback.call(RUN_PWD));
            assertEquals(ToolTexts.DENIED_BY_USER, callback.call("{\"executable\":\"touch\",\"arguments\":[\"/x\"]}",
                    new ToolContext(Map.of("user", "someone"))));
        }
        assertEquals(List.of("touch /x"), asked);
        assertEquals(List.of("aii: $ pwd"), output.lines());
    }

    @Test
    void theCallbackOfOneAnswerServesItFromAnyThreadAndKeepsItsLimit() throws Exception {
        try (AnswerScope answer = tool.startAnswer()) {
            RunCommandToolCallback callback = RunCommandToolCallback.of(answer);
            for (int i = 0; i < 16; i++) {
                assertEquals(PWD, CompletableFuture.supplyAsync(() -> callback.call(RUN_PWD)).get(10, TimeUnit.SECONDS));
            }
            assertEquals(ToolTexts.DENIED_TOO_MANY, callback.call(RUN_PWD));
        }
    }

    @Test
    void theSharedCallbackRunsInTheAnswerOpenOnItsThreadAndNothingWithoutOne() {
        RunCommandToolCallback callback = RunCommandToolCallback.of(tool);
        assertThrows(IllegalStateException.class, () -> callback.call(RUN_PWD));
        try (AnswerScope answer = tool.startAnswer()) {
            assertEquals(PWD, callback.call(RUN_PWD, new ToolContext(Map.of())));
            answer.interrupt();
            assertEquals(ToolTexts.INTERRUPTED, callback.call(RUN_PWD));
        }
        try (AnswerScope next = tool.startAnswer()) {
            assertEquals(PWD, callback.call(RUN_PWD), "the interrupt of the last answer stays there");
        }
        assertEquals(List.of("aii: $ pwd", "aii: $ pwd"), output.lines());
    }

    @Test
    void theArgumentsReachTheToolExactlyAsTheModelWroteThem() {
        try (AnswerScope answer = tool.startAnswer()) {
            RunCommandToolCallback callback = RunCommandToolCallback.of(answer);
            assertEquals(ToolTexts.ARGUMENTS_NOT_STRINGS, callback.call("{\"executable\":\"ls\",\"arguments\":[1]}"));
            assertEquals(ToolTexts.INVALID_EXECUTABLE_TEXT, callback.call("{\"executable\":\"\"}"));
        }
        assertEquals(List.of(), output.lines());
    }
}
