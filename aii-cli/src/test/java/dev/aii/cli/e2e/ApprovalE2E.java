package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The approval prompt on a real pseudo-terminal: its exact bytes, the three
 * answers, the allow file an "always" writes, and the prompt reaching the
 * terminal when stdin is piped and stderr discarded.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ApprovalE2E extends ServerFixture {

    /**
     * What every prompt starts with: carriage return, shift in, line wrap on and the screen erased below
     * (column 0 of a clean line), then the reset of exec.md 9.4 (attributes off, ASCII, cursor shown).
     */
    static final String START = "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007" + "\u001b[0m\u001b(B\u001b[?25h";

    /** The prompt for {@code touch x.txt} as the terminal shows it (the terminal turns each LF into CR LF). */
    static final String PROMPT = START + "aii: run this command?\r\n  touch x.txt\r\n"
            + "  [y] yes once   [a] always allow exactly \"touch x.txt\"   [N] no\r\n> ";

    static final String DECLINED = "Denied: the user declined to run this command. Do not retry it.";

    /** The allow file as the first "always" seeds it, then the approved rule. */
    static final String SEEDED = "# seeded from aii 0.9.0 built-in defaults\n# one rule per line: an argv prefix\n"
            + CommandLineE2E.DEFAULTS;


    private void touchThenSay(String text) {
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("touch", "x.txt")), Reply.text(text));
    }

    /** Runs {@code aii -x "Create x.txt"} on a terminal, answers the prompt with {@code keys}, returns the screen. */
    private String answer(String keys) throws Exception {
        try (PtyDriver pty = aii.onTerminal(List.of("-x", "Create x.txt"))) {
            pty.awaitOutput(PROMPT, AiiProcess.LIMIT);
            pty.type(keys);
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
            return pty.filtered();
        }
    }

    @Test
    void noRunsNothingAndTellsTheModelTheUserDeclined() throws Exception {
        touchThenSay("As you wish.");
        assertEquals(PROMPT + "n\r\nAs you wish.\r\n", answer("n\n"));
        assertEquals(List.of(DECLINED), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
        assertFalse(Files.exists(aii.allowFile()));
    }

    @Test
    void yesRunsTheCommandOnceAndRemembersNothing() throws Exception {
        server.enqueue(Reply.stream().text("Let me", " see.").toolCall("run_command", ExecE2E.call("touch", "x.txt"))
                .done(), Reply.text("Created."));
        // The answer's line is ended before the prompt, on stdout, since stdout is the terminal.
        assertEquals("Let me see.\r\n" + PROMPT + "y\r\naii: $ touch x.txt\r\nCreated.\r\n", answer("y\n"));
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
        assertEquals("Let me see.", server.lastChatRequest().messages().get(2).path("content").asText());
        assertTrue(Files.exists(aii.directory().resolve("x.txt")));
        assertFalse(Files.exists(aii.allowFile()));
    }

    @Test
    void alwaysRunsTheCommandSeedsTheAllowFileAndTheNextRunDoesNotAsk() throws Exception {
        touchThenSay("Created.");
        assertEquals(PROMPT + "a\r\naii: $ touch x.txt\r\nCreated.\r\n", answer("a\n"));
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
        assertEquals(SEEDED + "= touch x.txt\n", Files.readString(aii.allowFile()));

        // Without a terminal a prompt could only be denied: the command running shows the rule matched.
        Files.delete(aii.directory().resolve("x.txt"));
        touchThenSay("Created again.");
        assertEquals(new Result(0, "Created again.\n", "aii: $ touch x.txt\n"), aii.run("-x", "Create x.txt"));
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
        assertTrue(Files.exists(aii.directory().resolve("x.txt")));
        assertEquals(new Result(0, "# source: " + aii.allowFile() + "\n" + CommandLineE2E.DEFAULTS + "= touch x.txt\n", ""),
                aii.run("--list-allowed"));
    }

    @Test
    void withPipedStdinAndStderrDiscardedThePromptStillReachesTheTerminal() throws Exception {
        Files.writeString(aii.directory().resolve("notes"), "call Bob\n");
        touchThenSay("Noted.");
        try (PtyDriver pty = aii.onTerminal("cat notes | {aii} -x 'Keep these notes in x.txt' 2>/dev/null")) {
            pty.awaitOutput(PROMPT, AiiProcess.LIMIT);
            pty.type("y\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
            assertEquals(PROMPT + "y\r\nNoted.\r\n", pty.filtered());
        }
        assertEquals("Keep these notes in x.txt\n\n--- CONTENT ---\ncall Bob\n\n--- END CONTENT ---",
                server.chatRequests().getFirst().lastUserMessage());
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
        assertTrue(Files.exists(aii.directory().resolve("x.txt")));
    }

    /**
     * A model can repeat what a command printed: {@code ESC[8m} reaching the
     * terminal would conceal the prompt after it. On the terminal it is shown
     * escaped, and the prompt's bytes are as always (through a pipe too: see
     * PromptIntegrityE2E).
     */
    @Test
    void escapeSequencesInTheAnswerReachTheTerminalEscapedSoTheyCannotHideThePrompt() throws Exception {
        server.enqueue(Reply.stream().text("Sure.\u001B[8m\u001B]0;y\u0007").toolCall("run_command",
                ExecE2E.call("touch", "x.txt")).done(), Reply.text("Done\u001B[2J."));
        assertEquals("Sure.\\x1B[8m\\x1B]0;y\\x07\r\n" + PROMPT + "n\r\nDone\\x1B[2J.\r\n", answer("n\n"));
        assertEquals(List.of(DECLINED), server.lastChatRequest().toolResults());
    }

    @Test
    void ctrlCAtThePromptDeclinesAndTheAnswerGoesOn() throws Exception {
        touchThenSay("Left alone.");
        try (PtyDriver pty = aii.onTerminal(List.of("-x", "Create x.txt"))) {
            pty.awaitOutput(PROMPT, AiiProcess.LIMIT);
            pty.type("\u0003");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
            // The terminal echoes ^C; aii ends the prompt's line before the answer goes on.
            assertEquals(PROMPT + "^C\r\nLeft alone.\r\n", pty.filtered());
        }
        assertEquals(List.of(DECLINED), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
    }

    @Test
    void aProgramOutsideTheSystemDirectoriesIsShownInFullAndCannotBeAlwaysAllowed() throws Exception {
        Path script = aii.directory().resolve("hello.sh");
        Files.writeString(script, "#!/bin/sh\necho hello from the script\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("./hello.sh", "a b")),
                Reply.text("It said hello."));
        String shown = script.toRealPath() + " 'a b' (not in a system directory)";
        String prompt = START + "aii: run this command?\r\n  " + shown + "\r\n  [y] yes once   [N] no\r\n> ";
        try (PtyDriver pty = aii.onTerminal(List.of("-x", "Run my script"))) {
            pty.awaitOutput(prompt, AiiProcess.LIMIT);
            pty.type("a\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
            assertEquals(prompt + "a\r\nIt said hello.\r\n", pty.filtered());
        }
        // "a" is not offered, so it means no.
        assertEquals(List.of(DECLINED), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.allowFile()));
    }
}
