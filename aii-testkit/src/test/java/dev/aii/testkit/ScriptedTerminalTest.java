package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.exec.ApprovalRequest;
import dev.aii.exec.Approver;
import dev.aii.exec.Cancellation;
import dev.aii.exec.TerminalApprover;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The scripted terminal behind a real approver, as other modules' tests use it. */
class ScriptedTerminalTest {

    private static final ApprovalRequest REQUEST = new ApprovalRequest(
            new ResolvedCommand("git", "/usr/bin/git", "git", true, List.of("status")),
            Optional.of(Rule.of("git", "status")), List.of());
    private static final String PROMPT = "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25h"
            + "aii: run this command?\n  git status\n"
            + "  [y] yes once   [a] always allow \"git status\"   [N] no\n> ";

    private final RecordingExecOutput output = new RecordingExecOutput();

    @Test
    void answersInOrderThenEndOfInputAndRecordsEverything() {
        ScriptedTerminal terminal = ScriptedTerminal.answering("y", "a");
        TerminalApprover approver = new TerminalApprover(terminal, output);
        assertEquals(Approver.Answer.ONCE, approver.ask(REQUEST, new Cancellation()));
        assertEquals(Approver.Answer.ALWAYS, approver.ask(REQUEST, new Cancellation()));
        assertEquals(Approver.Answer.NO, approver.ask(REQUEST, new Cancellation()));
        // End of input: the approver ends the prompt's line itself.
        assertEquals(List.of(PROMPT, PROMPT, PROMPT + "\n"), terminal.prompts());
        assertEquals(PROMPT + "y\n" + PROMPT + "a\n" + PROMPT + "\n", terminal.transcript());
        assertEquals(List.of("open", "discard", "write:" + PROMPT, "read:y", "close"), terminal.events().subList(0, 5));
        assertEquals("read:EOF", terminal.events().get(13));
        assertEquals(List.of(RecordingExecOutput.BEFORE_TERMINAL, RecordingExecOutput.BEFORE_TERMINAL,
                RecordingExecOutput.BEFORE_TERMINAL), output.events());
    }

    @Test
    void anAbsentTerminalCannotBeOpened() {
        ScriptedTerminal terminal = ScriptedTerminal.absent();
        assertEquals(Approver.Answer.NO_TERMINAL, new TerminalApprover(terminal, output).ask(REQUEST, new Cancellation()));
        assertEquals(1, terminal.opened());
        assertEquals(List.of(), terminal.prompts());
    }

    @Test
    void anInteractiveTerminalWaitsForTheAnswerOrTheCancellation() throws Exception {
        ScriptedTerminal terminal = ScriptedTerminal.interactive();
        TerminalApprover approver = new TerminalApprover(terminal, output);
        CompletableFuture<Approver.Answer> answered = CompletableFuture.supplyAsync(
                () -> approver.ask(REQUEST, new Cancellation()), task -> Thread.ofPlatform().start(task));
        terminal.awaitPrompts(1, Duration.ofSeconds(10));
        terminal.answer("y");
        assertEquals(Approver.Answer.ONCE, answered.get(10, TimeUnit.SECONDS));

        Cancellation cancellation = new Cancellation();
        CompletableFuture<Approver.Answer> cancelled = CompletableFuture.supplyAsync(
                () -> approver.ask(REQUEST, cancellation), task -> Thread.ofPlatform().start(task));
        terminal.awaitPrompts(2, Duration.ofSeconds(10));
        cancellation.cancel();
        assertEquals(Approver.Answer.NO, cancelled.get(10, TimeUnit.SECONDS));
        assertEquals(1, terminal.mostOpenAtOnce());
    }
}
