package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.AllowFile;
import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the tool does with each answer at the approval prompt. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RunCommandToolApprovalTest {

    private static final String DENIED = "Denied: the user declined to run this command. Do not retry it.";
    private static final String NO_TERMINAL = "Denied: this command is not on the allowlist and there is no "
            + "terminal to ask the user for approval. Do not retry it.";

    /** A thread per task: the common pool may have a single thread on a small machine. */
    private static final Executor NEW_THREAD = task -> Thread.ofPlatform().daemon().start(task);

    @TempDir
    Path dir;

    private static String promptFor(String display, String always) {
        return TerminalApproverTest.START + "aii: run this command?\n  " + display + "\n  [y] yes once"
                + (always == null ? "" : "   [a] always allow \"" + always + "\"") + "   [N] no\n> ";
    }

    /** The prompt of a program without a guard table, whose "always" stores exactly the command. */
    private static String promptExactly(String display) {
        return TerminalApproverTest.START + "aii: run this command?\n  " + display + "\n  [y] yes once"
                + "   [a] always allow exactly \"" + display + "\"   [N] no\n> ";
    }

    @Test
    void noRunsNothing() {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("n"));
        assertEquals(DENIED, f.call("touch", made.toString()));
        assertFalse(Files.exists(made));
        assertEquals("", f.stderr());
        assertEquals(List.of(promptExactly("touch " + made) + "n\n"), f.terminal.prompts());
    }

    @Test
    void anEmptyAnswerAndEndOfInputMeanNo() {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("", null));
        assertEquals(DENIED, f.call("touch", made.toString()));
        assertEquals(DENIED, f.call("touch", made.toString()));
        assertFalse(Files.exists(made));
    }

    @Test
    void withoutATerminalNothingRuns() {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        assertEquals(NO_TERMINAL, f.call("touch", made.toString()));
        assertFalse(Files.exists(made));
        assertEquals("", f.stderr());
    }

    @Test
    void allowedCommandsRunWithoutATerminal() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        assertEquals("exit 0\n/\n", f.call("ls", "-d", "/"));
        assertEquals(0, f.terminal.opened());
    }

    @Test
    void onceRunsTheCommandAndStoresNoRule() throws IOException {
        Path made = dir.resolve("made");
        AllowFile file = AllowFile.at(dir.resolve("config/allow"));
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("y", "n"), file, Limits.DEFAULT, false);
        assertEquals("exit 0\n", f.call("touch", made.toString()));
        assertTrue(Files.exists(made));
        assertEquals("aii: $ touch " + made + "\n", f.stderr());
        assertEquals(Builtins.defaults(), f.tool.policy().rules());
        assertFalse(Files.exists(file.path()));
        assertEquals(DENIED, f.call("touch", made.toString()));
        assertEquals(2, f.terminal.opened());
    }

    @Test
    void alwaysStoresTheFullArgvWhenTheFirstArgumentIsAnOptionAndStopsAsking() throws IOException {
        AllowFile file = AllowFile.at(Files.createDirectories(dir.resolve("config")).resolve("allow"));
        Files.writeString(file.path(), "");
        ToolFixture f = new ToolFixture(RuleSet.empty(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        String first = f.call("stat", "-L", "/");
        assertTrue(first.startsWith("exit 0\n"), first);
        assertEquals(List.of(promptFor("stat -L /", "stat -L /") + "a\n"), f.terminal.prompts());
        assertEquals(RuleSet.of(List.of(Rule.of("stat", "-L", "/"))), f.tool.policy().rules());
        assertEquals("stat -L /\n", Files.readString(file.path()));
        assertTrue(f.call("stat", "-L", "/").startsWith("exit 0\n"));
        assertEquals(1, f.terminal.opened());
        // The stored rule is the whole argv, so other arguments still ask (and the script has no answer left).
        assertEquals(DENIED, f.call("stat", "-L", "/tmp"));
        assertEquals(2, f.terminal.opened());
    }

    @Test
    void alwaysStoresTheExactCommandOfAProgramWithoutATableAndSeedsTheFileWithTheDefaults() throws IOException {
        AllowFile file = AllowFile.at(dir.resolve("config/allow"));
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("A"), file, Limits.DEFAULT, false);
        assertEquals("exit 0\nhello", f.call("printf", "%s", "hello"));
        assertEquals(List.of(promptExactly("printf %s hello") + "A\n"), f.terminal.prompts());
        assertTrue(f.tool.policy().rules().contains(Rule.exactly(List.of("printf", "%s", "hello"))));
        StringBuilder seeded = new StringBuilder("# seeded from aii 0.9.0 built-in defaults\n"
                + "# one rule per line: an argv prefix\n");
        Builtins.DEFAULT_RULES.forEach(r -> seeded.append(r.toLine()).append('\n'));
        assertEquals(seeded + "= printf %s hello\n", Files.readString(file.path()));
        assertEquals("exit 0\nhello", f.call("printf", "%s", "hello"));
        assertEquals(1, f.terminal.opened());
        // Anything added to the command is another command: it asks (and the terminal has no answer left).
        assertEquals(DENIED, f.call("printf", "%s", "hello", "again"));
        assertEquals(2, f.terminal.opened());
        assertEquals("aii: $ printf %s hello\naii: $ printf %s hello\n", f.stderr());
    }

    @Test
    void alwaysStoresProgramAndFirstArgumentOfAProgramWithATable() throws IOException {
        AllowFile file = AllowFile.at(dir.resolve("config/allow"));
        Path notes = Files.writeString(dir.resolve("notes"), "b\na\n");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        assertEquals("exit 0\na\nb\n", f.call("sort", notes.toString()));
        assertEquals(List.of(promptFor("sort " + notes, "sort " + notes) + "a\n"), f.terminal.prompts());
        assertTrue(Files.readString(file.path()).endsWith("\nsort " + notes + "\n"));
        // The table reads what follows the stored prefix: a harmless option runs, one that writes asks.
        assertEquals("exit 0\nb\na\n", f.call("sort", notes.toString(), "-r"));
        assertEquals(1, f.terminal.opened());
        assertEquals(DENIED, f.call("sort", notes.toString(), "-o", dir.resolve("out").toString()));
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void alwaysIsNotOfferedForNeverAlwaysProgramsSoAnAIsNo() {
        Path victim = dir.resolve("victim");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"));
        assertEquals(DENIED, f.call("rm", victim.toString()));
        assertEquals(List.of(promptFor("rm " + victim, null) + "a\n"), f.terminal.prompts());
        assertEquals(Builtins.defaults(), f.tool.policy().rules());
    }

    @Test
    void anApproverAnsweringAlwaysWhereItWasNotOfferedIsANo() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), "keep me");
        Path made = dir.resolve("made");
        RunCommandTool tool = RunCommandTool.builder()
                .policy(new ToolFixture(Builtins.defaults(), FakeTerminal.absent()).tool.policy())
                .approver((request, cancellation) -> Approver.Answer.ALWAYS)
                .runner(new ProcessBuilderRunner())
                .output(ExecOutput.to(System.err, true, () -> { }))
                .build();
        AnswerScope answer = tool.startAnswer();
        assertEquals(DENIED, answer.call(ToolFixture.json("rm", victim.toString())));
        assertTrue(Files.exists(victim));
        assertEquals(Builtins.defaults(), tool.policy().rules());
        // Where "always" is offered the same answer runs the command and stores its rule (here the exact command).
        assertEquals("exit 0\n", answer.call(ToolFixture.json("touch", made.toString())));
        assertTrue(Files.exists(made));
        assertEquals(Builtins.defaults().with(Rule.exactly(List.of("touch", made.toString()))), tool.policy().rules());
    }

    @Test
    void aProgramOutsideTheSystemDirectoriesAlwaysAsksAndNeverOffersAlways() throws IOException {
        Path script = Files.writeString(dir.resolve("hello"), "#!/bin/sh\necho script ran\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        ToolFixture f = new ToolFixture(Builtins.defaults().with(Rule.of("hello")), FakeTerminal.answering("y"));
        assertEquals("exit 0\nscript ran\n", f.call(script.toString()));
        assertEquals(List.of(promptFor(script + " (not in a system directory)", null) + "y\n"), f.terminal.prompts());
        assertEquals("aii: $ " + script + "\n", f.stderr());
    }

    @Test
    void aRuleThatCannotBeSavedStillAppliesAndIsReported() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("config"), "a file");
        AllowFile file = AllowFile.at(notADirectory.resolve("allow"));
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        assertEquals("exit 0\nx", f.call("printf", "%s", "x"));
        assertTrue(f.stderr().startsWith("aii: warning: could not save rule to " + file.path() + ": "), f.stderr());
        assertEquals("exit 0\nx", f.call("printf", "%s", "x"));
        assertEquals(1, f.terminal.opened());
    }

    @Test
    void twoConcurrentCallsNeverInterleaveTheirPrompts() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.waiting());
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> f.call("touch", a.toString()), NEW_THREAD);
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> f.call("touch", b.toString()), NEW_THREAD);
        f.terminal.awaitPrompts(1, Duration.ofSeconds(10));
        awaitSecondCallWaiting(f.terminal);
        assertEquals(1, f.terminal.opened(), "the second prompt was shown before the first was answered");
        f.terminal.answer("n");
        f.terminal.awaitPrompts(2, Duration.ofSeconds(10));
        f.terminal.answer("n");
        assertEquals(DENIED, first.get(10, TimeUnit.SECONDS));
        assertEquals(DENIED, second.get(10, TimeUnit.SECONDS));
        assertEquals(1, f.terminal.mostOpenAtOnce());
        List<String> prompts = f.terminal.prompts();
        assertEquals(2, prompts.size());
        assertTrue(prompts.contains(promptExactly("touch " + a) + "n\n"), prompts.toString());
        assertTrue(prompts.contains(promptExactly("touch " + b) + "n\n"), prompts.toString());
    }

    /**
     * Gives the second call time to reach the approver: either it waits for
     * the prompt (as it must) or it opens a second conversation (the bug).
     */
    private static void awaitSecondCallWaiting(FakeTerminal terminal) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (terminal.opened() < 2) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the second call never reached the approver");
            }
            boolean waitingForLock = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING)
                    .anyMatch(t -> List.of(t.getStackTrace()).stream()
                            .anyMatch(e -> e.getClassName().equals(TerminalApprover.class.getName())
                                    && e.getMethodName().equals("lock")));
            if (waitingForLock) {
                return;
            }
            Thread.sleep(10);
        }
    }
}
