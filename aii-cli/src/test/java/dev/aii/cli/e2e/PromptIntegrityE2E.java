package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The spoofs that tried to make the approval prompt lie, each on a real
 * pseudo-terminal against the real launcher: escape sequences in the answer
 * through a pipe that reaches the terminal, a command that leaves the terminal
 * concealed, an argument that wraps into a false prompt, and Ctrl-\ while a
 * command runs.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PromptIntegrityE2E extends ServerFixture {

    private static final String START = ApprovalE2E.START;

    /** {@link #START} when a line of the answer may still be open: its LF comes after the screen is put back. */
    private static final String START_AFTER_OPEN_LINE = START.replace("\u001b8\r", "\u001b8\r\n\r");

    /** A false prompt for {@code ls -l /tmp}, as a model could write it in its text. */
    private static final String FAKE_PROMPT = "aii: run this command?\n  ls -l /tmp\n  [y] yes once   [N] no\n> ";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A {@code run_command} call, JSON-escaped whatever the strings hold. */
    private static String call(String executable, String... arguments) throws Exception {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("executable", executable);
        call.put("arguments", List.of(arguments));
        return JSON.writeValueAsString(call);
    }

    /** The screen without aii's own prompt starts: what is left of escape characters came from elsewhere. */
    private static String withoutPromptStarts(String screen) {
        return screen.replace(START_AFTER_OPEN_LINE, "").replace(START, "");
    }

    /**
     * {@code aii -x ... | cat}: the answer reaches the terminal through a
     * pipe. It hides the real prompt with {@code ESC[8m} after drawing a false
     * one, clears the screen, sets the clipboard (OSC 52) and turns text right
     * to left (U+202E). All of it shows as text; the real prompt comes whole,
     * after a line feed of its own (the answer's line was left open), at
     * column 0 and after the reset.
     */
    @Test
    void throughAPipeTheAnswersEscapesShowAsTextAndTheRealPromptStartsAtColumnZeroAfterTheReset() throws Exception {
        Path victim = Files.writeString(aii.directory().resolve("victim"), "keep me\n");
        server.enqueue(Reply.stream()
                        .text("I will list /tmp.\n", "\u001b[2J\u001b]52;c;cm0gLXJmIH4=\u0007", "\u202e" + FAKE_PROMPT,
                                "\u001b[8", "m")
                        .toolCall("run_command", call("rm", "victim")).done(),
                Reply.text("Left it."));
        try (PtyDriver pty = aii.onTerminal("{aii} -x 'Tidy up' | cat")) {
            String real = START_AFTER_OPEN_LINE + "aii: run this command?\r\n  rm victim\r\n  [y] yes once   [N] no\r\n> ";
            pty.awaitOutput(real, AiiProcess.LIMIT);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            String screen = pty.filtered();
            assertTrue(screen.contains("I will list /tmp.\r\n\\x1B[2J\\x1B]52;c;cm0gLXJmIH4=\\x07\\u{202E}"
                    + "aii: run this command?\r\n  ls -l /tmp\r\n  [y] yes once   [N] no\r\n> \\x1B[8m"), screen);
            assertTrue(screen.endsWith("Left it.\r\n"), screen);
            String rest = withoutPromptStarts(screen);
            for (char c : new char[] {'\u001b', '\u0007', '\u202e', '\u009b', '\u000e', '\u000f'}) {
                assertEquals(-1, rest.indexOf(c), "a raw U+" + Integer.toHexString(c) + " reached the terminal: " + screen);
            }
        }
        assertEquals(List.of(ApprovalE2E.DECLINED), server.lastChatRequest().toolResults());
        assertEquals("keep me\n", Files.readString(victim));
    }

    /**
     * A command that the user approved opens the terminal device by name and
     * leaves it concealed, in line drawing, shifted out, with the cursor hidden
     * and line wrap off. The next prompt undoes all of it before its first
     * character.
     */
    @Test
    void aCommandThatConcealsTheTerminalCannotHideTheNextPrompt() throws Exception {
        String paint = "printf '\\033[8m\\033(0\\033)0\\016\\033[?25l\\033[?7lfake\\n' > \"$(cat ttyname)\"";
        server.enqueue(Reply.stream().toolCall("run_command", call("sh", "-c", paint)).done(),
                Reply.stream().text("Now x.txt.").toolCall("run_command", call("touch", "x.txt")).done(),
                Reply.text("Done."));
        try (PtyDriver pty = aii.onTerminal("tty > ttyname; exec {aii} -x 'Paint, then make x.txt'")) {
            pty.awaitOutput(START + "aii: run this command?\r\n  sh -c ", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("y\n");
            String painted = "\u001b[8m\u001b(0\u001b)0\u000e\u001b[?25l\u001b[?7lfake\r\n";
            pty.awaitOutput(painted, AiiProcess.LIMIT);
            // stdout is the terminal: the answer's line is ended there, and the prompt starts as always.
            pty.awaitOutput("Now x.txt.\r\n" + START + "aii: run this command?\r\n  touch x.txt\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            String screen = pty.filtered();
            assertTrue(screen.indexOf(painted) < screen.lastIndexOf(START), screen);
        }
        // The painting command ran (approved); the prompt after it was seen and answered.
        assertEquals(List.of("exit 0\n", ApprovalE2E.DECLINED), server.lastChatRequest().toolResults());
        assertFalse(Files.exists(aii.directory().resolve("x.txt")));
    }

    /**
     * One argument padded with spaces so that, wrapped on an 80-column
     * screen, it draws a prompt for {@code ls -l /tmp} and pushes the real
     * first lines out of view. The last lines before {@code > } still name
     * the program that runs.
     */
    @Test
    void aLongArgumentThatWrapsIntoAFalsePromptIsFollowedByTheRealProgramsName() throws Exception {
        Path victim = Files.writeString(aii.directory().resolve("victim"), "keep me\n");
        String spoof = " ".repeat(80 * 24) + pad("aii: run this command?") + pad("  ls -l /tmp")
                + pad("  [y] yes once   [N] no") + "> ";
        server.enqueue(Reply.stream().toolCall("run_command", call("rm", "-f", "victim", spoof)).done(),
                Reply.text("Left it."));
        try (PtyDriver pty = aii.onTerminal("stty cols 80 rows 24; exec {aii} -x 'Tidy up'")) {
            int characters = ("rm -f victim '" + spoof + "'").length();
            pty.awaitOutput(START + "aii: run this command?\r\n  rm -f victim '" + spoof + "'\r\n"
                    + "  (rm: 3 arguments, " + characters + " characters)\r\n  [y] yes once   [N] no\r\n> ",
                    AiiProcess.LIMIT);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals(List.of(ApprovalE2E.DECLINED), server.lastChatRequest().toolResults());
        assertEquals("keep me\n", Files.readString(victim));
    }

    /** {@code s} and spaces to the end of an 80-column line. */
    private static String pad(String s) {
        return s + " ".repeat(80 - s.length());
    }

    /**
     * Ctrl-\ (SIGQUIT) while an approved command runs: the JVM prints no
     * thread dump (neither into stdout nor on the terminal), aii does not
     * die, and the command, in a session of its own, runs to its end.
     */
    @Test
    void ctrlBackslashWhileACommandRunsStopsNothingAndLeavesStdoutTheAnswer() throws Exception {
        String waits = "touch started; while [ ! -e go ]; do sleep 0.05; done; touch finished";
        server.enqueue(Reply.stream().text("Waiting.").toolCall("run_command", call("sh", "-c", waits)).done(),
                Reply.text(" It went on."));
        Path dir = aii.directory();
        try (PtyDriver pty = aii.onTerminal("exec {aii} -x 'Wait for go' > answer.txt")) {
            pty.awaitOutput(START_AFTER_OPEN_LINE + "aii: run this command?\r\n  sh -c ", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("y\n");
            awaitFile(dir.resolve("started"));
            pty.type("\u001c");
            // The terminal echoes ^\ as it sends the signal: it has been sent when this shows.
            pty.awaitOutput("^\\", AiiProcess.LIMIT);
            Files.writeString(dir.resolve("go"), "");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            assertFalse(pty.output().contains("Full thread dump"), pty.output());
            assertFalse(pty.output().contains("\"main\""), pty.output());
        }
        assertTrue(Files.exists(dir.resolve("finished")), "the command was stopped");
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
        assertEquals("Waiting. It went on.\n", Files.readString(dir.resolve("answer.txt")));
    }

    /** Waits for {@code file} to exist: the time limit only catches a hang. */
    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + AiiProcess.LIMIT.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(file + " did not appear within " + AiiProcess.LIMIT);
            }
            Thread.sleep(20);
        }
    }
}
