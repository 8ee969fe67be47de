package dev.aii.langchain4j;

import dev.aii.exec.AnswerScope;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.ToolTexts;
import dev.aii.model.ToolSpec;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.Map;
import java.util.Objects;

/**
 * aii's {@code run_command} tool as a LangChain4j tool: a
 * {@link ToolSpecification} with the tool's name, description and argument
 * schema, and a {@link ToolExecutor} that hands each call, as the model wrote
 * its arguments, to {@link RunCommandTool}: its policy, the application's
 * {@link dev.aii.exec.Approver}, its runner and limits, and its result strings.
 *
 * {@snippet :
 * Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .tools(RunCommandLangChain4j.tools(tool))
 *         .build();
 * try (AnswerScope answer = tool.startAnswer()) {    // the 16-command limit and Ctrl-C of this answer
 *     String reply = assistant.chat("How much disk space is free?");
 * }
 * }
 *
 * <p>{@link #tools(RunCommandTool)} runs each call in the answer open on the
 * calling thread, which is where LangChain4j runs tools unless told to run
 * them concurrently; a call with no answer open runs nothing and fails with
 * {@link IllegalStateException} (LangChain4j's default error handler logs it
 * and tells the model). With concurrent tool execution, build the tools of
 * one answer with {@link #tools(AnswerScope)}.
 */
public final class RunCommandLangChain4j {

    private RunCommandLangChain4j() {
    }

    /** The tool for {@code AiServices.tools(...)}: each call goes to the answer open on its thread. */
    public static Map<ToolSpecification, ToolExecutor> tools(RunCommandTool tool) {
        return tools(tool.spec());
    }

    /** The tool for {@code AiServices.tools(...)}: each call goes to {@code answer}, from any thread. */
    public static Map<ToolSpecification, ToolExecutor> tools(AnswerScope answer) {
        return tools(answer.spec());
    }

    private static Map<ToolSpecification, ToolExecutor> tools(ToolSpec spec) {
        return Map.of(specification(spec), executor(spec));
    }

    /**
     * The specification LangChain4j sends the model: the name and description
     * of {@code spec}, and the parameters of {@link ToolTexts#parametersSchema()}.
     *
     * @throws IllegalArgumentException when {@code spec} is not {@code run_command}
     */
    public static ToolSpecification specification(ToolSpec spec) {
        requireRunCommand(spec);
        JsonObjectSchema parameters = JsonObjectSchema.builder()
                .addStringProperty("executable", ToolTexts.EXECUTABLE_DESCRIPTION)
                .addProperty("arguments", JsonArraySchema.builder()
                        .items(new JsonStringSchema())
                        .description(ToolTexts.ARGUMENTS_DESCRIPTION)
                        .build())
                .required("executable", "arguments")
                .build();
        return ToolSpecification.builder()
                .name(spec.name())
                .description(spec.description())
                .parameters(parameters)
                .build();
    }

    /** Runs each request through {@code spec}'s handler with the arguments exactly as the model wrote them. */
    public static ToolExecutor executor(ToolSpec spec) {
        requireRunCommand(spec);
        return (request, memoryId) -> spec.handler().call(request.arguments());
    }

    private static void requireRunCommand(ToolSpec spec) {
        Objects.requireNonNull(spec, "spec");
        if (!spec.name().equals(ToolTexts.TOOL_NAME)) {
            throw new IllegalArgumentException("not the " + ToolTexts.TOOL_NAME + " tool: " + spec.name());
        }
    }
}
