package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.ApprovalRequest;
import dev.aii.exec.Approver;
import dev.aii.exec.Platform;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.ToolTexts;
import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.StubShim;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.RuleSet;
import dev.aii.testkit.RecordingExecOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The run_command tool through the shim: the model's JSON arguments reach Java and the result returns to the model. */
class FoundationModelsToolTest {

    private final FoundationModelsBackend backend =
            new FoundationModelsBackend(StubShim.environment(), new Host("Linux", "6.1", Optional.empty()));

    /** Approves every command once and remembers what it was asked. */
    static final class OnceApprover implements Approver {
        final List<String> asked = new ArrayList<>();

        @Override
        public Answer ask(ApprovalRequest request, dev.aii.exec.Cancellation cancellation) {
            asked.add(request.command().display());
            return Answer.ONCE;
        }
    }

    @BeforeEach
    void resetStub() {
        StubShim.resetAll();
    }

    @AfterEach
    void noSessionLeftAndNoContractBroken() {
        assertEquals(0, StubShim.liveSessions());
        assertEquals(0, StubShim.contractViolations());
    }

    @Test
    void aToolCallRunsThroughRunCommandToolAndItsResultReturnsToTheAnswer() throws ModelException {
        OnceApprover approver = new OnceApprover();
        RecordingExecOutput output = new RecordingExecOutput();
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(RuleSet.empty(), SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"),
                        Path.of("").toAbsolutePath())))
                .approver(approver)
                .runner(new PosixCommandRunner())
                .output(output)
                .platform(Platform.OTHER)
                .build();
        StubShim.delta("Checking.\n");
        StubShim.toolCall("{\"executable\":\"echo\",\"arguments\":[\"h\u00e9llo\",\"w\u00f6rld\"]}");
        StubShim.echoToolResult("Result: ");
        StubShim.delta("Done.");
        StringBuilder answer = new StringBuilder();
        try (Session session = backend.openSession(new SessionOptions(Optional.of("instructions"), List.of(tool.spec())));
             AnswerScope scope = tool.startAnswer()) {
            session.respond("say hello", answer::append);
        }
        assertEquals("Checking.\nResult: exit 0\nh\u00e9llo w\u00f6rld\nDone.", answer.toString());
        assertEquals(1, approver.asked.size());
        assertEquals(List.of("aii: $ echo 'h\u00e9llo' 'w\u00f6rld'"), output.lines());
        assertEquals("run_command", StubShim.lastText("tool_name"));
        assertEquals(ToolTexts.toolDescription(Platform.OTHER), StubShim.lastText("tool_description"));
        assertEquals(ToolTexts.parametersSchema(), StubShim.lastText("tool_schema"));
    }

    @Test
    void theToolSeesTheArgumentsExactlyAsTheModelWroteThem() throws ModelException {
        List<String> calls = new ArrayList<>();
        ToolSpec spec = new ToolSpec("t", "d", "{}", json -> {
            calls.add(json);
            return "ok";
        });
        StubShim.toolCall("{ \"a\" : [1, 2.5, \"\\u00e9\"] }");
        StubShim.echoToolResult("got ");
        StringBuilder answer = new StringBuilder();
        try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(spec)))) {
            session.respond("p", answer::append);
        }
        assertEquals(List.of("{ \"a\" : [1, 2.5, \"\\u00e9\"] }"), calls);
        assertEquals("got ok", answer.toString());
    }

    @Test
    void anExceptionInTheToolBecomesAnInternalErrorWithItAsTheCause() throws ModelException {
        IllegalStateException thrown = new IllegalStateException("disk on fire");
        ToolSpec spec = new ToolSpec("run_command", "d", "{}", json -> {
            throw thrown;
        });
        StubShim.delta("Let me run it.");
        StubShim.toolCall("{}");
        StubShim.delta("never");
        StringBuilder answer = new StringBuilder();
        try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(spec)))) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", answer::append));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The run_command tool failed", e.getMessage());
            assertEquals(Optional.of("java.lang.IllegalStateException: disk on fire"), e.detail());
            assertSame(thrown, e.getCause());
        }
        assertEquals("Let me run it.", answer.toString());
    }

    @Test
    void aToolReturningNullIsAFailedToolCall() {
        ToolSpec spec = new ToolSpec("t", "d", "{}", json -> null);
        StubShim.toolCall("{}");
        ModelException e = assertThrows(ModelException.class, () -> {
            try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(spec)))) {
                session.respond("p", piece -> { });
            }
        });
        assertEquals("The t tool failed", e.getMessage());
    }
}
