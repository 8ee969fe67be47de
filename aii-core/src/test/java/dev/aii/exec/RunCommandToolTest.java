package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The tool's validation, log line, results and per-answer limits, with real processes. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RunCommandToolTest {

    private static final RuleSet WITH_ECHO = Builtins.defaults().with(Rule.of("echo")).with(Rule.of("sleep"));

    /** A thread per task: the common pool may have a single thread on a small machine. */
    private static final Executor NEW_THREAD = task -> Thread.ofPlatform().daemon().start(task);

    @TempDir
    Path dir;

    @Test
    void echoRunsAndIsLoggedOnStderr() {
        ToolFixture f = new ToolFixture(WITH_ECHO, FakeTerminal.absent());
        assertEquals("exit 0\nhi\n", f.call("echo", "hi"));
        assertEquals("aii: $ echo hi\n", f.stderr());
    }

    @Test
    void theLogLineRendersTheDisplayArgv() {
        ToolFixture f = new ToolFixture(WITH_ECHO, FakeTerminal.absent());
        assertEquals("exit 0\na b\nc\n", f.call("/usr/bin/echo", "a b\nc"));
        assertEquals("aii: $ echo 'a b\\nc'\n", f.stderr());
    }

    @Test
    void jsonModeLogsNothing() {
        ToolFixture f = new ToolFixture(WITH_ECHO, FakeTerminal.absent(), null, Limits.DEFAULT, true);
        assertEquals("exit 0\nhi\n", f.call("echo", "hi"));
        assertEquals("", f.stderr());
    }

    @Test
    void aNonZeroExitIsReported() {
        ToolFixture f = new ToolFixture(WITH_ECHO.with(Rule.of("false")), FakeTerminal.absent());
        assertEquals("exit 1\n", f.call("false"));
    }

    @Test
    void missingArgumentsMeanNone() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        assertEquals("exit 0\n" + Path.of("").toAbsolutePath() + "\n", f.answer.call("{\"executable\":\"pwd\"}"));
    }

    @Test
    void anEmptyExecutableIsInvalid() {
        assertEquals("Error: invalid executable", refused(ToolFixture.json("")));
    }

    @Test
    void anExecutableWithNulIsInvalid() {
        assertEquals("Error: invalid executable", refused(ToolFixture.json("ls\0")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "{", "[]", "\"ls\"", "{\"arguments\":[]}", "{\"executable\":1}",
            "{\"executable\":null}", "{\"executable\":[\"ls\"]}", "{\"executable\":\"ls\"} trailing"})
    void argumentsThatAreNotAnObjectWithAStringExecutableAreAnInvalidExecutable(String json) {
        assertEquals("Error: invalid executable", refused(json));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"executable\":\"ls\",\"arguments\":\"-la\"}",
            "{\"executable\":\"ls\",\"arguments\":[1]}", "{\"executable\":\"ls\",\"arguments\":[\"-l\",null]}",
            "{\"executable\":\"ls\",\"arguments\":{\"a\":\"b\"}}", "{\"executable\":\"ls\",\"arguments\":[[\"-l\"]]}"})
    void argumentsThatAreNotAnArrayOfStringsAreRefused(String json) {
        assertEquals("Error: arguments must be an array of strings", refused(json));
    }

    @Test
    void anUnknownProgramIsNotFound() {
        assertEquals("Error: executable not found: no-such-program-aii",
                refused(ToolFixture.json("no-such-program-aii", "-v")));
    }

    @Test
    void theProgramNameAmongTheArgumentsIsRefused() {
        String expected = "Error: arguments must not include the program name. Pass only the arguments, "
                + "e.g. executable \"df\" with arguments [\"-h\", \"/\"].";
        assertEquals(expected, refused(ToolFixture.json("df", "df", "-h")));
        assertEquals(expected, refused(ToolFixture.json("/bin/df", "df")));
        assertEquals(expected, refused(ToolFixture.json("/bin/df", "/bin/df")));
    }

    @Test
    void aNulInAnArgumentCannotLaunch() {
        assertEquals("Error: could not launch ls: argument contains a NUL character",
                refused(ToolFixture.json("ls", "a\0b")));
    }

    @Test
    void aLaunchFailureGivesTheSystemsReason() throws IOException {
        Path script = Files.writeString(dir.resolve("bad-interpreter"), "#!/nonexistent/interpreter\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        ToolFixture f = new ToolFixture(RuleSet.empty(), FakeTerminal.answering("y"));
        assertEquals("Error: could not launch " + script + ": No such file or directory", f.call(script.toString()));
    }

    @Test
    void theSeventeenthCallOfAnAnswerIsDeniedAndANewAnswerStartsAfresh() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        for (int i = 1; i <= 16; i++) {
            assertTrue(f.call("pwd").startsWith("exit 0\n"), "call " + i);
        }
        assertEquals("Denied: too many commands in one answer. Do not retry it.", f.call("pwd"));
        assertEquals("Denied: too many commands in one answer. Do not retry it.", f.call("pwd"));
        assertEquals(16, f.stderr().lines().count());
        f.nextAnswer();
        assertTrue(f.call("pwd").startsWith("exit 0\n"));
    }

    @Test
    void aTimeoutReportsTheLimitAndThePartialOutput() {
        Limits oneSecond = Limits.DEFAULT.withTimeout(Duration.ofSeconds(1)).withKillGrace(Duration.ofSeconds(1));
        ToolFixture f = new ToolFixture(WITH_ECHO.with(Rule.of("sh", "-c")), FakeTerminal.absent(), null, oneSecond, false);
        assertEquals("Terminated: the command exceeded the 1-second time limit.\nbefore\n",
                f.call("sh", "-c", "echo before; sleep 30; echo after"));
    }

    @Test
    void interruptingTerminatesTheRunningCommandAndLaterCallsOfTheAnswer() throws Exception {
        ToolFixture f = new ToolFixture(WITH_ECHO, FakeTerminal.absent());
        CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> f.call("sleep", "30"), NEW_THREAD);
        awaitChild("sleep");
        f.answer.interrupt();
        assertEquals("Terminated: interrupted by the user.\n", result.get(10, TimeUnit.SECONDS));
        assertEquals("Terminated: interrupted by the user.", f.call("echo", "later"));
        assertEquals("aii: $ sleep 30\n", f.stderr());
        f.nextAnswer();
        assertEquals("exit 0\nnext\n", f.call("echo", "next"));
    }

    @Test
    void interruptingAtThePromptRunsNothing() throws Exception {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.waiting());
        CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> f.call("touch", made.toString()), NEW_THREAD);
        f.terminal.awaitPrompts(1, Duration.ofSeconds(10));
        f.answer.interrupt();
        assertEquals("Terminated: interrupted by the user.", result.get(10, TimeUnit.SECONDS));
        assertFalse(Files.exists(made));
        assertEquals("", f.stderr());
    }

    private String refused(String json) {
        ToolFixture f = new ToolFixture(Builtins.defaults().with(Rule.of("df")), FakeTerminal.answering("y"));
        String result = f.answer.call(json);
        assertEquals(0, f.terminal.opened(), "a refused call must not prompt");
        assertEquals("", f.stderr(), "a refused call must not run");
        return result;
    }

    /** Waits until this JVM has a descendant process running {@code program}. */
    private static void awaitChild(String program) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            boolean running = ProcessHandle.current().descendants()
                    .anyMatch(p -> p.info().command().map(c -> c.endsWith("/" + program)).orElse(false));
            if (running) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(program + " did not start");
    }

    @Test
    void theToolSpecNamesTheToolAndCarriesTheTexts() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        assertEquals("run_command", f.tool.spec().name());
        assertEquals(ToolTexts.toolDescription(Platform.OTHER), f.tool.spec().description());
        assertEquals(ToolTexts.parametersSchema(), f.tool.spec().parametersSchema());
    }
}
