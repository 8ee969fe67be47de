package dev.aii.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdout that cannot take what aii writes: a pipe whose reader left ends aii
 * quietly with 141 (cli.md 9.7); any other failure (a full disk, a closed
 * descriptor) fails the command with exit 1 and says so.
 */
class StdoutFailureTest {

    private static final String CANNOT_WRITE = "aii: Cannot write to stdout\n";
    private static final String CANNOT_WRITE_ANSWER = "aii: Cannot write the answer to stdout\n";
    private static final String DISK_FULL = "No space left on device";

    @TempDir
    Path home;

    private CliHarness cli() {
        return new CliHarness(home).workingDirectory(home);
    }

    @Test
    void versionHelpAndTheAllowlistStopQuietlyWhenTheReaderLeft() {
        for (String flag : List.of("--version", "--help", "--list-allowed")) {
            CliHarness cli = cli().stdoutFailingAfter(0);
            assertEquals(141, cli.run(flag), flag);
            assertEquals("", cli.err(), flag);
        }
    }

    @Test
    void versionHelpAndTheAllowlistFailWhenStdoutCannotBeWritten() {
        for (String flag : List.of("--version", "--help", "--list-allowed")) {
            CliHarness cli = cli().stdoutFailingAfter(0, DISK_FULL);
            assertEquals(1, cli.run(flag), flag);
            assertEquals(CANNOT_WRITE, cli.err(), flag);
        }
    }

    @Test
    void underJsonAReaderThatLeftIsNotReportedEither() {
        CliHarness cli = cli().stdoutFailingAfter(0);
        assertEquals(141, cli.run("--help", "-j"));
        assertEquals("", cli.err());
    }

    @Test
    void underJsonAnotherFailureIsAJsonLineWithItsCause() {
        CliHarness cli = cli().stdoutFailingAfter(0, DISK_FULL);
        assertEquals(1, cli.run("--help", "-j"));
        assertEquals("{\"error\":\"internal_error\",\"message\":\"Cannot write to stdout\","
                + "\"detail\":\"java.io.IOException: No space left on device\",\"exitCode\":1}\n", cli.err());
    }

    @Test
    void modelInfoStopsWhenStdoutIsGone() {
        CliHarness cli = cli().model(new ScriptedModel()).stdoutFailingAfter(0);
        assertEquals(141, cli.run("-m"));
        assertEquals("", cli.err());
        CliHarness full = cli().model(new ScriptedModel()).stdoutFailingAfter(0, DISK_FULL);
        assertEquals(1, full.run("-m"));
        assertEquals(CANNOT_WRITE, full.err());
    }

    @Test
    void aShortAnswerWrittenAtItsEnd() {
        CliHarness cli = cli().model(new ScriptedModel().answerText("ok")).stdinTerminal().stdoutFailingAfter(0);
        assertEquals(141, cli.run("hi"));
        assertEquals("", cli.err());
        CliHarness full = cli().model(new ScriptedModel().answerText("ok")).stdinTerminal()
                .stdoutFailingAfter(0, DISK_FULL);
        assertEquals(1, full.run("hi"));
        assertEquals(CANNOT_WRITE_ANSWER, full.err());
    }

    @Test
    void anAnswerStopsAtTheFirstWriteThatFails() {
        for (boolean json : List.of(false, true)) {
            ScriptedModel model = new ScriptedModel().answerText("line one\n", "line two\n", "line three\n");
            CliHarness cli = cli().model(model).stdinTerminal().stdoutFailingAfter("line one\n".length());
            assertEquals(141, json ? cli.run("-j", "count") : cli.run("count"));
            assertEquals("line one\n", cli.out());
            assertEquals("", cli.err());
        }
        ScriptedModel model = new ScriptedModel().answerText("line one\n", "line two\n", "line three\n");
        CliHarness cli = cli().model(model).stdinTerminal().stdoutFailingAfter("line one\n".length(), DISK_FULL);
        assertEquals(1, cli.run("count"));
        assertEquals("line one\n", cli.out());
        assertEquals(CANNOT_WRITE_ANSWER, cli.err());
    }

    @Test
    void interactiveModeEndsAfterAnAnswerItCannotWrite() {
        int shown = (Interactive.HEADER + Interactive.PROMPT).getBytes(UTF_8).length;
        ScriptedModel model = new ScriptedModel().answerText("one\n").answerText("two\n");
        CliHarness cli = cli().model(model).stdin("first\nsecond\n").stdoutFailingAfter(shown);
        assertEquals(141, cli.run("-i"));
        assertEquals("", cli.err());
        assertEquals(List.of("first"), model.prompts);
        ScriptedModel again = new ScriptedModel().answerText("one\n").answerText("two\n");
        CliHarness full = cli().model(again).stdin("first\nsecond\n").stdoutFailingAfter(shown, DISK_FULL);
        assertEquals(1, full.run("-i"));
        assertEquals(CANNOT_WRITE_ANSWER, full.err());
    }

    @Test
    void interactiveModeStopsWhenTheHeaderOrThePromptCannotBeWritten() {
        for (int shown : List.of(0, Interactive.HEADER.getBytes(UTF_8).length)) {
            ScriptedModel model = new ScriptedModel();
            CliHarness cli = cli().model(model).stdin("first\n").stdoutFailingAfter(shown);
            assertEquals(141, cli.run("-i"), "after " + shown + " bytes");
            assertEquals("", cli.err());
            assertEquals(List.of(), model.prompts);
            CliHarness full = cli().model(new ScriptedModel()).stdin("first\n").stdoutFailingAfter(shown, DISK_FULL);
            assertEquals(1, full.run("-i"), "after " + shown + " bytes");
            assertEquals(CANNOT_WRITE, full.err());
        }
    }
}
