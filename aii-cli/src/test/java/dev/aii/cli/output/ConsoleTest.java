package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one owner of the output: the order of writes on both streams, and the texts it writes. */
class ConsoleTest {

    /** Every write to either stream, in order, as {@code out:<text>} or {@code err:<text>}. */
    private final List<String> writes = new ArrayList<>();

    private OutputStream recording(String stream) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(stream + ":" + new String(b, off, len, StandardCharsets.UTF_8));
            }
        };
    }

    private Console console(boolean stdoutTerminal, boolean json, boolean exec) {
        return new Console(recording("out"), recording("err"), stdoutTerminal, json, exec, false);
    }

    @Test
    void everyStderrLineComesAfterThePendingAnswerAndAFreshLineOnATerminal() {
        Console console = console(true, false, true);
        console.answer("Let me look");
        console.commandLog("ls -l");
        console.answer("Found it.");
        console.warning("could not save rule to /x: Permission denied");
        console.report(new ModelException(ErrorCode.RATE_LIMITED, "Model busy, try again", null));
        assertEquals(List.of("out:Let me look", "out:\n", "err:aii: $ ls -l\n", "out:Found it.", "out:\n",
                "err:aii: warning: could not save rule to /x: Permission denied\n",
                "err:aii: Model busy, try again\n"), writes);
    }

    @Test
    void throughAPipeTheAnswerIsFlushedFirstButItsLineIsLeftAsItIs() {
        Console console = console(false, false, false);
        console.answer("buffered, no LF");
        console.hint("use /new to start a fresh conversation");
        assertEquals(List.of("out:buffered, no LF", "err:aii: use /new to start a fresh conversation\n"), writes);
    }

    @Test
    void underJsonWarningsAndLogLinesAreLeftOutAndErrorsAndHintsAreJsonLines() {
        Console console = console(false, true, true);
        console.warning("w");
        console.commandLog("pwd");
        assertEquals(4, console.report(new ModelException(ErrorCode.RATE_LIMITED, "Model busy, try again", null)));
        console.hint("use /new to start a fresh conversation");
        assertEquals(List.of("err:{\"error\":\"rate_limited\",\"message\":\"Model busy, try again\",\"exitCode\":4}\n",
                "err:{\"hint\":\"use /new to start a fresh conversation\"}\n"), writes);
    }

    @Test
    void everyLineOfAMessageIsPrefixed() {
        Console console = console(false, false, false);
        assertEquals(1, console.report(ModelException.internal("first\nsecond", null, null)));
        assertEquals(List.of("err:aii: first\naii: second\n"), writes);
    }

    @Test
    void thePromptIsToldOfALineLeftOpenOnAPipeOnce() {
        Console console = console(false, false, true);
        console.answer("Checking files.");
        assertTrue(console.beforePrompt());
        assertFalse(console.beforePrompt());
        assertEquals(List.of("out:Checking files."), writes);
    }

    @Test
    void onATerminalThePromptsLineIsEndedOnStdout() {
        Console console = console(true, false, true);
        console.answer("Checking files.");
        assertFalse(console.beforePrompt());
        assertEquals(List.of("out:Checking files.", "out:\n"), writes);
    }

    @Test
    void printStartsOnAFreshLineAndAStdoutThatFailsFailsTheCommand() throws ModelException {
        Console console = console(true, false, false);
        console.answer("half a line");
        console.print("aii 0.9.0\n");
        assertEquals(List.of("out:half a line", "out:\n", "out:aii 0.9.0\n"), writes);

        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        Console failing = new Console(closed, recording("err"), false, false, false, false);
        ModelException e = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class, () -> failing.print("x"));
        assertEquals("Cannot write to stdout", e.getMessage());
        assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
    }

    @Test
    void aStderrThatIsGoneLosesTheLineButNothingElse() {
        OutputStream gone = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Bad file descriptor");
            }
        };
        Console console = new Console(recording("out"), gone, true, false, true, false);
        console.answer("text");
        console.warning("lost");
        console.answer(" more");
        assertEquals(List.of("out:text", "out:\n", "out: more"), writes);
    }
}
