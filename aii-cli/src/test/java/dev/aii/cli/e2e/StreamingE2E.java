package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A slow server, as a user sees it on a real terminal: text without a line
 * feed shows while the server still holds the rest, a waiting line comes
 * while nothing does and goes before the text, never on a stderr that is not a
 * terminal nor under --json, and Ctrl-C while waiting leaves a line of its
 * own. The server holds each reply at a gate the test opens once it has seen
 * what it waits for, so nothing depends on how fast the machine is.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamingE2E extends ServerFixture {

    static final String DRAWN = "\r- waiting for " + FakeOpenAiServer.DEFAULT_MODEL;
    static final String ERASE = "\r\u001b[2K";
    /** One or more drawings of the waiting line, then its erasure. */
    static final String WAITED = "(?:\r[-\\\\|/] waiting for " + FakeOpenAiServer.DEFAULT_MODEL + ")+\r\u001b\\[2K";

    /**
     * The shell around aii ignores Ctrl-C, so that it lives on to print aii's exit status (aii gets
     * SIGINT back at its default action through {@code env --default-signal=INT}).
     */
    static final String IGNORING_INT = "trap '' INT; ";

    private final Reply.Gate gate = new Reply.Gate();

    @BeforeEach
    void aTerminalThatJLineKnows() {
        aii.env("TERM", "xterm-256color");
    }

    @Test
    void theStartOfALineReachesTheTerminalWhileTheServerHoldsTheRest() throws Exception {
        server.enqueue(Reply.stream().text("The capital").hold(gate).text(" of France is Paris.").done());
        try (PtyDriver pty = aii.onTerminal("{aii} what is the capital of France 2>err.txt")) {
            pty.awaitOutput("The capital", AiiProcess.LIMIT);
            assertFalse(pty.output().contains("Paris"), pty.output());
            gate.release();
            pty.awaitOutput(" of France is Paris.\r\n", AiiProcess.LIMIT);
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals("what is the capital of France", server.lastChatRequest().lastUserMessage());
        assertEquals("", Files.readString(aii.directory().resolve("err.txt")));
    }

    @Test
    void throughAPipeTooAndTheBytesAreThoseOfTheAnswer() throws Exception {
        server.enqueue(Reply.stream().text("Hél").hold(gate).text("lo, ", "wörld.\n", "Bye").done());
        Running running = aii.start("greet", "me");
        running.awaitStdout("Hél");
        gate.release();
        assertEquals(new Result(0, "Héllo, wörld.\nBye\n", ""), running.awaitExit());
    }

    @Test
    void theWaitingLineComesWhileNothingDoesAndIsErasedBeforeTheText() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("Paris.").done());
        try (PtyDriver pty = aii.onTerminal(List.of("what", "is", "the", "capital")).hiding(null)) {
            pty.awaitOutput(DRAWN, AiiProcess.LIMIT);
            pty.awaitOutput("\r\\ waiting for " + FakeOpenAiServer.DEFAULT_MODEL, AiiProcess.LIMIT);   // it turns
            gate.release();
            pty.awaitOutput("Paris.\r\n", AiiProcess.LIMIT);
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            assertTrue(Pattern.compile("^" + WAITED + "Paris\\.\r\n$").matcher(pty.output()).find(),
                    PtyDriverText.shown(pty.output()));
        }
    }

    @Test
    void inInteractiveModeTheLineIsErasedBeforeTheTextAndThePromptComesAfter() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("Paris.").done());
        try (PtyDriver pty = aii.onTerminal(List.of("-i")).hiding(null)) {
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("capital of France?\n");
            pty.awaitOutput(DRAWN, AiiProcess.LIMIT);
            gate.release();
            pty.awaitOutput("Paris.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            String out = pty.output();
            String afterLine = out.substring(out.indexOf("capital of France?"));
            assertTrue(Pattern.compile(WAITED + "Paris\\.\r\n").matcher(afterLine).find(), PtyDriverText.shown(out));
            assertEquals(out.indexOf("Paris."), out.lastIndexOf("Paris."), PtyDriverText.shown(out));
            assertFalse(out.substring(out.indexOf("Paris.")).contains("waiting for"), PtyDriverText.shown(out));
        }
    }

    @Test
    void betweenToolCallsEachRequestHasItsWaitingLine() throws Exception {
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("pwd")),
                Reply.stream().hold(gate).text("You are in work.").done());
        try (PtyDriver pty = aii.onTerminal(List.of("-x", "where", "am", "I")).hiding(null)) {
            pty.awaitOutput("aii: $ pwd\r\n", AiiProcess.LIMIT);
            pty.awaitOutput(DRAWN, AiiProcess.LIMIT);
            gate.release();
            pty.awaitOutput("You are in work.\r\n", AiiProcess.LIMIT);
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            String out = pty.output();
            String afterLog = out.substring(out.indexOf("aii: $ pwd\r\n") + "aii: $ pwd\r\n".length());
            assertTrue(Pattern.compile("^" + WAITED + "You are in work\\.\r\n$").matcher(afterLog).find(),
                    PtyDriverText.shown(out));
        }
    }

    @Test
    void neverAWaitingLineWhenStderrIsAPipeOrUnderJson() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("ok").done(), Reply.stream().hold(gate).text("ok").done());
        try (FakeOpenAiServer control = FakeOpenAiServer.start()) {
            control.enqueue(Reply.stream().hold(gate).text("ok").done());
            Running piped = aii.start("hi");
            try (PtyDriver json = aii.onTerminal(List.of("--json", "hi")).hiding(null)) {
                server.awaitChatRequests(2, AiiProcess.LIMIT);
                // A run that draws the line, asked after both: once it shows, they have waited as long.
                AiiProcess drawing = new AiiProcess(tmp.resolve("control")).server(control);
                try (PtyDriver seen = drawing.onTerminal(List.of("hi")).hiding(null)) {
                    seen.awaitOutput(DRAWN, AiiProcess.LIMIT);
                    seen.awaitOutput("\r| waiting for " + FakeOpenAiServer.DEFAULT_MODEL, AiiProcess.LIMIT);
                    gate.release();
                    assertEquals(0, seen.awaitExit(AiiProcess.LIMIT), seen.output());
                }
                assertEquals(0, json.awaitExit(AiiProcess.LIMIT), json.output());
                assertEquals("ok\r\n", json.output(), PtyDriverText.shown(json.output()));
            }
            assertEquals(new Result(0, "ok\n", ""), piped.awaitExit());
        }
    }

    @Test
    void ctrlCWhileTheWaitingLineShowsLeavesAClearedLineAndALineFeed() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("never").done());
        try (PtyDriver pty = aii.onTerminal(IGNORING_INT + "{aii} hi; echo rc=$?").hiding(null)) {
            pty.awaitOutput(DRAWN, AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("rc=130", AiiProcess.LIMIT);
            String out = pty.output();
            assertFalse(out.contains("^Crc=130"), PtyDriverText.shown(out));
            assertTrue(Pattern.compile(WAITED.replace(")+", ")+(?:\\^C)?") + "\r\nrc=130\r\n$").matcher(out).find(),
                    PtyDriverText.shown(out));
        }
    }

    @Test
    void ctrlCBeforeAnyTextWithStderrElsewhereEndsTheCtrlCLine() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("never").done());
        try (PtyDriver pty = aii.onTerminal(IGNORING_INT + "{aii} hi 2>err.txt; echo rc=$?")) {
            server.awaitChatRequests(1, AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("rc=130", AiiProcess.LIMIT);
            assertTrue(pty.output().endsWith("^C\r\nrc=130\r\n"), PtyDriverText.shown(pty.output()));
        }
        assertEquals("", Files.readString(aii.directory().resolve("err.txt")));
    }

    @Test
    void ctrlCInTheMiddleOfALineEndsItOnce() throws Exception {
        server.enqueue(Reply.stream().text("Counting: one, two").hold(gate).text(" never").done());
        try (PtyDriver pty = aii.onTerminal(IGNORING_INT + "{aii} count 2>err.txt; echo rc=$?")) {
            pty.awaitOutput("Counting: one, two", AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("rc=130", AiiProcess.LIMIT);
            assertTrue(pty.output().endsWith("Counting: one, two^C\r\nrc=130\r\n"), PtyDriverText.shown(pty.output()));
        }
    }

    @Test
    void ctrlCWhileWaitingInInteractiveModeGivesTheNextPromptALineOfItsOwn() throws Exception {
        server.enqueue(Reply.stream().hold(gate).text("never").done(), Reply.text("Next."));
        try (PtyDriver pty = aii.onTerminal("exec {aii} -i 2>err.txt")) {
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("slow one\n");
            server.awaitChatRequests(1, AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("^C\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("again\n");
            pty.awaitOutput("Next.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            // JLine sets its terminal modes around each line (ESC[?1h ESC= ESC[?2004h before the prompt).
            String out = pty.output();
            String modes = "(?:\u001b(?:\\[[?0-9;$]*[a-zA-Z]|[=>]))*";
            assertTrue(Pattern.compile("\\^C\r\n" + modes + "> ").matcher(out).find(), PtyDriverText.shown(out));
            assertFalse(Pattern.compile("\\^C" + modes + "> ").matcher(out).find(), PtyDriverText.shown(out));
        }
    }
}
