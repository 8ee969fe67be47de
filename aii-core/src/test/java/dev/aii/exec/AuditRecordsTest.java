package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.policy.Builtins;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the tool reports to its audit log for each kind of call. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AuditRecordsTest {

    private static final String CWD = Path.of("").toAbsolutePath().toString();

    @TempDir
    Path dir;

    private static AuditRecord only(ToolFixture f) {
        assertEquals(1, f.audit.size(), f.audit.toString());
        return f.audit.getFirst();
    }

    private static void assertDecision(AuditRecord r, AuditRecord.Outcome decision, String why) {
        assertEquals(decision, r.decision());
        assertEquals(why, r.why());
        assertEquals(CWD, r.workingDirectory());
    }

    @Test
    void aDefaultRuleRunIsRanByDefaultRuleWithItsFacts() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        f.call("/bin/ls", "-d", "/");
        AuditRecord r = only(f);
        assertDecision(r, AuditRecord.Outcome.RAN, "default rule");
        assertEquals(Optional.of("ls -d /"), r.argv());
        assertTrue(r.path().orElseThrow().endsWith("/ls"), r.path().toString());
        assertEquals(Optional.of("0"), r.exit());
        assertEquals(OptionalLong.of(2), r.outputBytes());
        assertTrue(r.duration().orElseThrow().compareTo(Duration.ZERO) >= 0);
        assertEquals(List.of(), r.guarded());
    }

    @Test
    void aHandWrittenRuleIsNamed() {
        ToolFixture f = new ToolFixture(RuleSet.of(List.of(Rule.of("printf", "%s"))), FakeTerminal.absent());
        f.call("printf", "%s", "a b");
        AuditRecord r = only(f);
        assertDecision(r, AuditRecord.Outcome.RAN, "rule printf %s");
        assertEquals(Optional.of("printf %s 'a b'"), r.argv());
        assertEquals(OptionalLong.of(3), r.outputBytes());
    }

    @Test
    void answersAtThePromptAreNamed() {
        AllowFile file = AllowFile.at(dir.resolve("config/allow"));
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("y", "n", "a"), file,
                Limits.DEFAULT, false);
        f.call("printf", "once");
        f.call("printf", "no");
        f.call("printf", "always");
        assertEquals(List.of("approved once", "user declined", "approved always"),
                f.audit.stream().map(AuditRecord::why).toList());
        assertEquals(List.of(AuditRecord.Outcome.RAN, AuditRecord.Outcome.DENIED, AuditRecord.Outcome.RAN),
                f.audit.stream().map(AuditRecord::decision).toList());
        assertEquals(Optional.empty(), f.audit.get(1).exit());
        assertEquals(OptionalLong.empty(), f.audit.get(1).outputBytes());
        assertEquals(Optional.empty(), f.audit.get(1).duration());
    }

    @Test
    void noTerminalAndAGuardAreRecorded() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        f.call("date", "-s", "not a date");
        AuditRecord r = only(f);
        assertDecision(r, AuditRecord.Outcome.DENIED, "no terminal");
        assertEquals(List.of("this form of date can set the system clock"), r.guarded());
        assertEquals(Optional.of("date -s 'not a date'"), r.argv());
    }

    @Test
    void theSeventeenthCallIsALimit() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent(), null,
                Limits.DEFAULT.withCommandsPerAnswer(1), false);
        f.call("pwd");
        f.call("pwd");
        assertEquals(List.of("default rule", "limit"), f.audit.stream().map(AuditRecord::why).toList());
        assertEquals(Optional.of("pwd"), f.audit.get(1).argv());
        assertEquals(Optional.empty(), f.audit.get(1).path());
    }

    @Test
    void errorsSayWhatKind() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent(), null,
                Limits.DEFAULT.withCommandsPerAnswer(100), false);
        f.call("no-such-program-here");
        f.answer.call("not json");
        f.call("");
        f.call("ls", "ls");
        f.answer.call("{\"executable\":\"ls\",\"arguments\":[1]}");
        assertEquals(List.of("not found", "invalid arguments", "invalid executable", "program name in arguments",
                "invalid arguments"), f.audit.stream().map(AuditRecord::why).toList());
        assertTrue(f.audit.stream().allMatch(r -> r.decision() == AuditRecord.Outcome.ERROR));
        assertEquals(Optional.of("no-such-program-here"), f.audit.getFirst().argv());
        assertEquals(Optional.empty(), f.audit.get(1).argv());
    }

    @Test
    void aTimeoutIsRecordedAsTheExit() {
        ToolFixture f = new ToolFixture(RuleSet.of(List.of(Rule.of("sleep"))), FakeTerminal.absent(), null,
                Limits.DEFAULT.withTimeout(Duration.ofMillis(200)).withKillGrace(Duration.ofMillis(200)), false);
        f.call("sleep", "30");
        AuditRecord r = only(f);
        assertDecision(r, AuditRecord.Outcome.RAN, "rule sleep");
        assertEquals(Optional.of("timeout"), r.exit());
    }

    @Test
    void aLogThatThrowsDoesNotFailTheCallAndIsReportedOnce() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ExecOutput output = ExecOutput.to(new PrintStream(err, true, StandardCharsets.UTF_8), false, () -> { });
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.of(Map.of("PATH", ToolFixture.PATH),
                        Path.of(""))))
                .approver(new TerminalApprover(FakeTerminal.absent(), output))
                .runner(new ProcessBuilderRunner())
                .output(output)
                .auditLog(record -> {
                    throw new IllegalStateException("disk on fire");
                })
                .build();
        AnswerScope answer = tool.startAnswer();
        assertEquals("exit 0\n/\n", answer.call(ToolFixture.json("ls", "-d", "/")));
        assertEquals("exit 0\n/\n", answer.call(ToolFixture.json("ls", "-d", "/")));
        assertEquals("aii: $ ls -d /\naii: warning: could not write audit log: java.lang.IllegalStateException: "
                + "disk on fire\naii: $ ls -d /\n", err.toString(StandardCharsets.UTF_8));
    }
}
