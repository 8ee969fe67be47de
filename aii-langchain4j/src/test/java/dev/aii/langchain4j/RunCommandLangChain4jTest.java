package dev.aii.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.ExecOutput;
import dev.aii.exec.Platform;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.ToolTexts;
import dev.aii.model.ToolSpec;
import dev.aii.policy.Builtins;
import dev.aii.policy.ExecPolicy;
import dev.aii.testkit.RecordingExecOutput;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.tool.ToolExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RunCommandLangChain4jTest {

    /** What {@code pwd} answers: commands run in this JVM's working directory. */
    private static final String PWD = "exit 0\n" + Path.of("").toAbsolutePath() + "\n";

    private final RecordingExecOutput output = new RecordingExecOutput();
    private final List<String> asked = new ArrayList<>();
    private final RunCommandTool tool = RunCommandTool.builder()
            .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"),
                    Path.of("/"))))
            .approver((request, cancellation) -> {
                asked.add(request.command().display());
                return dev.aii.exec.Approver.Answer.NO;
            })
            .runner(new ProcessBuilderRunner())
            .output(output)
            .platform(Platform.OTHER)
            .build();

    private static ToolExecutionRequest request(String arguments) {
        return ToolExecutionRequest.builder().id("call_1").name("run_command").arguments(arguments).build();
    }

    private static ToolExecutor executor(Map<ToolSpecification, ToolExecutor> tools) {
        assertEquals(1, tools.size());
        return tools.values().iterator().next();
    }

    @Test
    void theSpecificationIsRunCommandWithAiisTextsAndSchema() {
        ToolSpecification spec = RunCommandLangChain4j.specification(tool.spec());
        assertEquals("run_command", spec.name());
        assertEquals(ToolTexts.toolDescription(Platform.OTHER), spec.description());
        assertEquals(JsonObjectSchema.builder()
                .addProperty("executable", JsonStringSchema.builder()
                        .description(ToolTexts.EXECUTABLE_DESCRIPTION).build())
                .addProperty("arguments", JsonArraySchema.builder().items(new JsonStringSchema())
                        .description(ToolTexts.ARGUMENTS_DESCRIPTION).build())
                .required("executable", "arguments")
                .build(), spec.parameters());
        assertEquals(spec, RunCommandLangChain4j.tools(tool).keySet().iterator().next());
    }

    @Test
    void aCallOnTheAllowlistRunsAndOneOffItIsAskedAboutAndDenied() {
        ToolExecutor executor = executor(RunCommandLangChain4j.tools(tool));
        try (AnswerScope answer = tool.startAnswer()) {
            assertEquals(PWD, executor.execute(request("{\"executable\":\"pwd\",\"arguments\":[]}"), null));
            assertEquals(ToolTexts.DENIED_BY_USER,
                    executor.execute(request("{\"executable\":\"touch\",\"arguments\":[\"/x\"]}"), "memory"));
        }
        assertEquals(List.of("touch /x"), asked);
        assertEquals(List.of("aii: $ pwd"), output.lines());
    }

    @Test
    void theArgumentsReachTheToolExactlyAsTheModelWroteThem() {
        ToolExecutor executor = executor(RunCommandLangChain4j.tools(tool));
        try (AnswerScope answer = tool.startAnswer()) {
            assertEquals(ToolTexts.ARGUMENTS_NOT_STRINGS,
                    executor.execute(request("{\"executable\":\"ls\",\"arguments\":[1]}"), null));
            assertEquals(ToolTexts.INVALID_EXECUTABLE_TEXT, executor.execute(request("not json"), null));
            assertEquals("Error: arguments must not include the program name. Pass only the arguments, e.g. "
                    + "executable \"df\" with arguments [\"-h\", \"/\"].",
                    executor.execute(request("{\"executable\":\"ls\",\"arguments\":[\"ls\",\"-l\"]}"), null));
        }
        assertEquals(List.of(), output.lines());
    }

    @Test
    void withNoAnswerOpenOnTheThreadNothingRuns() {
        ToolExecutor executor = executor(RunCommandLangChain4j.tools(tool));
        assertThrows(IllegalStateException.class,
                () -> executor.execute(request("{\"executable\":\"pwd\",\"arguments\":[]}"), null));
        assertEquals(List.of(), output.lines());
    }

    @Test
    void theToolsOfOneAnswerServeItFromAnyThreadAndKeepItsLimit() throws Exception {
        try (AnswerScope answer = tool.startAnswer()) {
            ToolExecutor executor = executor(RunCommandLangChain4j.tools(answer));
            for (int i = 0; i < 16; i++) {
                assertEquals(PWD, CompletableFuture.supplyAsync(() -> executor.execute(
                        request("{\"executable\":\"pwd\",\"arguments\":[]}"), null)).get(10, TimeUnit.SECONDS));
            }
            assertEquals(ToolTexts.DENIED_TOO_MANY,
                    executor.execute(request("{\"executable\":\"pwd\",\"arguments\":[]}"), null));
        }
    }

    @Test
    void onlyTheRunCommandToolIsAccepted() {
        ToolSpec other = new ToolSpec("other", "d", "{}", json -> "x");
        assertEquals("not the run_command tool: other",
                assertThrows(IllegalArgumentException.class, () -> RunCommandLangChain4j.specification(other))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> RunCommandLangChain4j.executor(other));
    }
}
