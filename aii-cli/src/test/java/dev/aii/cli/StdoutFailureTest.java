package dev.aii.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stdout that cannot take what aii writes (closed, a pipe whose reader left) fails the command with exit 1. */
class StdoutFailureTest {

    private static final String CANNOT_WRITE = "aii: Cannot write to stdout\n";
    private static final String CANNOT_WRITE_ANSWER = "aii: Cannot write the answer to stdout\n";

    @TempDir
    Path home;

    private CliHarness cli() {
        return new CliHarness(home).workingDirectory(home);
    }

    @Test
    void versionHelpAndTheAllowlistFailWhenStdoutIsGone() {
        for (String flag : List.of("--version", "--help", "--list-allowed")) {
            CliHarness cli = cli().stdoutFailingAfter(0);
            assertEquals(1, cli.run(flag), flag);
            assertEquals(CANNOT_WRITE, cli.err(), flag);
        }
    }

    @Test
    void underJsonTheFailureIsAJsonLineWithItsCause() {
        CliHarness cli = cli().stdoutFailingAfter(0);
        assertEquals(1, cli.run("--help", "-j"));
        assertEquals("{\"error\":\"internal_error\",\"message\":\"Cannot write to stdout\","
                + "\"detail\":\"java.io.IOException: Broken pipe\",\"exitCode\":1}\n", cli.err());
    }

    @Test
    void modelInfoFailsWhenStdoutIsGone() {
        CliHarness cli = cli().model(new ScriptedModel()).stdoutFailingAfter(0);
        assertEquals(1, cli.run("-m"));
        assertEquals(CANNOT_WRITE, cli.err());
    }

    @Test
    void aShortAnswerWrittenAtItsEndFails() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli().model(model).stdinTerminal().stdoutFailingAfter(0);
        assertEquals(1, cli.run("hi"));
        assertEquals(CANNOT_WRITE_ANSWER, cli.err());
    }

    @Test
    void anAnswerStopsAtTheFirstWriteThatFails() {
        ScriptedModel model = new ScriptedModel().answerText("line one\n", "line two\n", "line three\n");
        CliHarness cli = cli().model(model).stdinTerminal().stdoutFailingAfter("line one\n".length());
        assertEquals(1, cli.run("count"));
        assertEquals("line one\n", cli.out());
        assertEquals(CANNOT_WRITE_ANSWER, cli.err());
    }

    @Test
    void interactiveModeEndsAfterAnAnswerItCannotWrite() {
        ScriptedModel model = new ScriptedModel().answerText("one\n").answerText("two\n");
        CliHarness cli = cli().model(model).stdin("first\nsecond\n")
                .stdoutFailingAfter((Interactive.HEADER + Interactive.PROMPT).getBytes(UTF_8)
                        .length);
        assertEquals(1, cli.run("-i"));
        assertEquals(CANNOT_WRITE_ANSWER, cli.err());
        assertEquals(List.of("first"), model.prompts);
    }

    @Test
    void interactiveModeFailsWhenTheHeaderCannotBeWritten() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli().model(model).stdin("first\n").stdoutFailingAfter(0);
        assertEquals(1, cli.run("-i"));
        assertEquals(CANNOT_WRITE, cli.err());
        assertEquals(List.of(), model.prompts);
    }

    @Test
    void interactiveModeFailsWhenThePromptCannotBeWritten() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli().model(model).stdin("first\n")
                .stdoutFailingAfter(Interactive.HEADER.getBytes(UTF_8).length);
        assertEquals(1, cli.run("-i"));
        assertEquals(CANNOT_WRITE, cli.err());
        assertEquals(List.of(), model.prompts);
    }
}
