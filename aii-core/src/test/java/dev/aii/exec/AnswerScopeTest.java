package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ToolHandler;
import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Each answer has its own limit and its own interruption, and no call runs outside an answer. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AnswerScopeTest {

    private static final RuleSet RULES = Builtins.defaults().with(Rule.of("echo")).with(Rule.of("sh", "-c"));
    private static final String INTERRUPTED = "Terminated: interrupted by the user.";
    private static final String TOO_MANY = "Denied: too many commands in one answer. Do not retry it.";
    private static final Executor NEW_THREAD = task -> Thread.ofPlatform().daemon().start(task);

    @TempDir
    Path dir;

    /** A command that runs until {@code file} exists: it ends when the test says so, not after some time. */
    private static String untilExists(Path file) {
        return ToolFixture.json("sh", "-c", "while [ ! -e '" + file + "' ]; do sleep 0.05; done; echo done");
    }

    private static void awaitLog(ToolFixture f, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!f.stderr().contains(line)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not logged: " + line + "; stderr: " + f.stderr());
            }
            Thread.sleep(10);
        }
    }

    @Test
    void anInterruptedAnswerLeavesTheNextOneAlone() {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope first = f.answer;
        first.interrupt();
        assertEquals(INTERRUPTED, f.call("echo", "in the first"));
        f.nextAnswer();
        assertEquals("exit 0\nin the second\n", f.call("echo", "in the second"));
        first.interrupt();
        assertEquals("exit 0\nstill\n", f.call("echo", "still"));
    }

    @Test
    void aLateInterruptOfAnEndedAnswerDoesNotStopTheCommandOfTheNext() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope first = f.answer;
        f.nextAnswer();
        AnswerScope second = f.answer;
        Path release = dir.resolve("release");
        CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> second.call(untilExists(release)),
                NEW_THREAD);
        awaitLog(f, "aii: $ sh -c");
        // Ctrl-C handled late, for the answer that already ended: it must not reach the one running now.
        first.interrupt();
        first.close();
        Files.createFile(release);
        assertEquals("exit 0\ndone\n", running.get(30, TimeUnit.SECONDS));
    }

    @Test
    void interruptingAnAnswerStopsItsRunningCommand() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope answer = f.answer;
        CompletableFuture<String> running = CompletableFuture.supplyAsync(
                () -> answer.call(untilExists(dir.resolve("never"))), NEW_THREAD);
        awaitLog(f, "aii: $ sh -c");
        answer.interrupt();
        assertEquals(INTERRUPTED + "\n", running.get(30, TimeUnit.SECONDS));
    }

    @Test
    void closingAnAnswerStopsWhatStillRunsInItAndRefusesLaterCalls() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope answer = f.answer;
        CompletableFuture<String> running = CompletableFuture.supplyAsync(
                () -> answer.call(untilExists(dir.resolve("never"))), NEW_THREAD);
        awaitLog(f, "aii: $ sh -c");
        answer.close();
        assertEquals(INTERRUPTED + "\n", running.get(30, TimeUnit.SECONDS));
        assertTrue(answer.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> answer.call(ToolFixture.json("echo", "late")));
        assertEquals("this answer has ended: start a new one with tool.startAnswer()", e.getMessage());
        assertFalse(f.stderr().contains("late"), f.stderr());
    }

    @Test
    void theLimitCountsTheCallsOfOneAnswerOnly() {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope other = f.tool.startAnswer();
        for (int i = 1; i <= 16; i++) {
            assertTrue(f.call("echo", "a").startsWith("exit 0\n"), "call " + i);
        }
        assertEquals(TOO_MANY, f.call("echo", "a"));
        assertEquals("exit 0\nb\n", other.call(ToolFixture.json("echo", "b")));
        f.nextAnswer();
        assertEquals("exit 0\nc\n", f.call("echo", "c"));
    }

    @Test
    void aCallThroughTheSpecWithNoOpenAnswerThrowsAtOnce() {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        f.answer.close();
        ToolHandler handler = f.tool.spec().handler();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> handler.call(ToolFixture.json("echo", "x")));
        assertEquals("run_command was called outside an answer: open one around each answer of the model with"
                + " try (AnswerScope answer = tool.startAnswer()) { ... }", e.getMessage());
        assertEquals("", f.stderr());
    }

    @Test
    void aCallThroughTheSpecGoesToTheAnswerOpenOnItsThread() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        ToolHandler handler = f.tool.spec().handler();
        for (int i = 1; i <= 16; i++) {
            handler.call(ToolFixture.json("echo", "x"));
        }
        assertEquals(TOO_MANY, handler.call(ToolFixture.json("echo", "x")));
        assertEquals(TOO_MANY, f.call("echo", "y"), "the spec's calls count in the answer open on this thread");
        // Another thread has no answer open: its calls do not borrow this one.
        CompletableFuture<Throwable> elsewhere = CompletableFuture.supplyAsync(() -> {
            try {
                handler.call(ToolFixture.json("echo", "z"));
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        }, NEW_THREAD);
        assertTrue(elsewhere.get(10, TimeUnit.SECONDS) instanceof IllegalStateException);
        f.nextAnswer();
        assertEquals("exit 0\nx\n", handler.call(ToolFixture.json("echo", "x")));
    }

    @Test
    void theSpecOfAnAnswerCallsThatAnswerFromAnyThread() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        AnswerScope answer = f.answer;
        assertEquals(f.tool.spec().name(), answer.spec().name());
        assertEquals(f.tool.spec().description(), answer.spec().description());
        assertEquals(f.tool.spec().parametersSchema(), answer.spec().parametersSchema());
        ToolHandler bound = answer.spec().handler();
        assertEquals("exit 0\nthere\n", CompletableFuture.supplyAsync(
                () -> bound.call(ToolFixture.json("echo", "there")), NEW_THREAD).get(10, TimeUnit.SECONDS));
        answer.interrupt();
        assertEquals(INTERRUPTED, bound.call(ToolFixture.json("echo", "after")));
    }

    @Test
    void anAnswerOpenedInsideAnotherGivesTheOuterOneBackWhenClosed() {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        ToolHandler handler = f.tool.spec().handler();
        AnswerScope outer = f.answer;
        outer.interrupt();
        try (AnswerScope inner = f.tool.startAnswer()) {
            assertEquals("exit 0\ninner\n", handler.call(ToolFixture.json("echo", "inner")));
            assertFalse(inner.isClosed());
        }
        assertEquals(INTERRUPTED, handler.call(ToolFixture.json("echo", "outer")));
        outer.close();
        assertThrows(IllegalStateException.class, () -> handler.call(ToolFixture.json("echo", "none")));
    }

    @Test
    void anAnswerClosedOnAnotherThreadNoLongerTakesTheCallsOfTheThreadThatOpenedIt() throws Exception {
        ToolFixture f = new ToolFixture(RULES, FakeTerminal.absent());
        ToolHandler handler = f.tool.spec().handler();
        AnswerScope answer = f.answer;
        CompletableFuture.runAsync(answer::close, NEW_THREAD).get(10, TimeUnit.SECONDS);
        assertThrows(IllegalStateException.class, () -> handler.call(ToolFixture.json("echo", "stale")));
        try (AnswerScope next = f.tool.startAnswer()) {
            assertEquals("exit 0\nnext\n", handler.call(ToolFixture.json("echo", "next")));
        }
        assertThrows(IllegalStateException.class, () -> handler.call(ToolFixture.json("echo", "none")),
                "the closed answer is not given back either");
        assertEquals("aii: $ echo next\n", f.stderr());
    }

    @Test
    void decliningPendingPromptsReachesOnlyThisAnswersPrompts() throws Exception {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.waiting());
        AnswerScope idle = f.answer;
        f.nextAnswer();
        AnswerScope asking = f.answer;
        Path made = dir.resolve("made");
        CompletableFuture<String> result = CompletableFuture.supplyAsync(
                () -> asking.call(ToolFixture.json("touch", made.toString())), NEW_THREAD);
        f.terminal.awaitPrompts(1, Duration.ofSeconds(10));
        assertFalse(idle.declinePendingPrompt());
        assertTrue(asking.declinePendingPrompt());
        assertEquals("Denied: the user declined to run this command. Do not retry it.", result.get(10, TimeUnit.SECONDS));
        assertFalse(Files.exists(made));
        assertFalse(asking.declinePendingPrompt(), "nothing is pending any more");
    }
}
