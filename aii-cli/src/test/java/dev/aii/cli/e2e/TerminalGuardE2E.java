package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.Await;
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
 * A model that asks the built-in {@code head} rule to read the user's own
 * terminal ({@code head -n1 /dev/pts/N} of the pseudo-terminal aii runs on)
 * gets a prompt instead of the keys typed there: the operand names a
 * character device.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TerminalGuardE2E extends ServerFixture {

    @Test
    void headOfTheUsersTerminalAsksInsteadOfReadingTheKeys() throws Exception {
        Path ttyName = aii.directory().resolve("tty-name");
        Path go = aii.directory().resolve("go");
        // The shell on the terminal says which terminal it is, then waits until the model's turn is scripted.
        try (PtyDriver pty = aii.onTerminal("tty > tty-name.tmp && mv tty-name.tmp tty-name; "
                + "while [ ! -e go ]; do sleep 0.05; done; {aii} -x 'What am I typing?'")) {
            Await.file(ttyName, AiiProcess.LIMIT);
            String tty = Files.readString(ttyName).strip();
            assertTrue(tty.startsWith("/dev/pts/"), tty);
            server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("head", "-n1", tty)),
                    Reply.text("I was not allowed."));
            Files.createFile(go);
            String prompt = "aii: run this command?\r\n  head -n1 " + tty + "\r\n  note: " + tty
                    + " is not a regular file or directory\r\n  [y] yes once   [N] no\r\n> ";
            pty.awaitOutput(prompt, AiiProcess.LIMIT);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            assertTrue(pty.output().endsWith(prompt + "n\r\nI was not allowed.\r\n"), pty.output());
        }
        assertEquals(List.of(ApprovalE2E.DECLINED), server.lastChatRequest().toolResults());
    }

    @Test
    void headOfAFileStillRunsUnasked() throws Exception {
        Files.writeString(aii.directory().resolve("notes.txt"), "first\nsecond\n");
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("head", "-n1", "notes.txt")),
                Reply.text("It starts with first."));
        assertEquals(new AiiProcess.Result(0, "It starts with first.\n", "aii: $ head -n1 notes.txt\n"),
                aii.run("-x", "What is the first line of notes.txt?"));
        assertEquals(List.of("exit 0\nfirst\n"), server.lastChatRequest().toolResults());
    }
}
