package dev.aii.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the console does by the clock, on a clock the test moves: text that
 * waited 100 ms is written, and on a terminal's stderr the waiting line comes
 * 300 ms after a request and goes before anything else.
 */
class ConsoleClockTest {

    static final String ERASE = "err:\r\u001b[2K";

    private final List<String> writes = new ArrayList<>();
    private final ManualTicker clock = new ManualTicker();

    private OutputStream recording(String stream) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (writes) {
                    writes.add(stream + ":" + new String(b, off, len, StandardCharsets.UTF_8));
                }
            }
        };
    }

    /** A console with stdout a pipe or a terminal and stderr a terminal 80 columns wide (0: not a terminal). */
    private Console console(boolean stdoutTerminal, int stderrColumns, boolean json, boolean exec) {
        return new Console(recording("out"), recording("err"), stdoutTerminal, stderrColumns, json, exec, false, clock);
    }

    private List<String> writes() {
        synchronized (writes) {
            return List.copyOf(writes);
        }
    }

    // ---- the 100 ms flush

    @Test
    void textWithoutALineFeedIsWrittenOnceItHasWaited100Ms() {
        Console console = console(false, 0, false, false);
        console.answer("The capital");
        clock.advanceMillis(99);
        assertEquals(List.of(), writes());
        clock.advanceMillis(1);
        assertEquals(List.of("out:The capital"), writes());
        console.answer(" of France is Paris.\n");
        console.endAnswer();
        assertEquals(List.of("out:The capital", "out: of France is Paris.\n", "out:\n"), writes());
    }

    @Test
    void theWaitIsCountedFromTheOldestTextStillInTheBuffer() {
        Console console = console(false, 0, false, false);
        console.answer("a");
        clock.advanceMillis(60);
        console.answer("b");            // waits with a, since 0
        clock.advanceMillis(40);
        assertEquals(List.of("out:ab"), writes());
        console.answer("c\nd");         // the whole buffer goes with its LF
        assertEquals(List.of("out:ab", "out:c\nd"), writes());
        console.answer("e");            // waits since 100
        clock.advanceMillis(99);
        assertEquals(List.of("out:ab", "out:c\nd"), writes());
        clock.advanceMillis(1);
        assertEquals(List.of("out:ab", "out:c\nd", "out:e"), writes());
    }

    @Test
    void textWrittenByItsLineFeedIsNotWrittenAgainAndNewTextWaitsItsOwn100Ms() {
        Console console = console(false, 0, false, false);
        console.answer("one\n");
        console.answer("tw");
        clock.advanceMillis(50);
        console.answer("o\n");
        console.answer("three");
        clock.advanceMillis(50);          // 100 ms after "tw": that text is gone, "three" waited 50
        assertEquals(List.of("out:one\n", "out:two\n"), writes());
        clock.advanceMillis(50);
        assertEquals(List.of("out:one\n", "out:two\n", "out:three"), writes());
    }

    @Test
    void aHighSurrogateWaitsForItsPairSoTheBytesAreTheSame() {
        Console console = console(false, 0, false, false);
        console.answer("ok \uD83D");
        clock.advanceMillis(100);
        assertEquals(List.of("out:ok "), writes());
        console.answer("\uDC4D done");
        clock.advanceMillis(100);
        console.endAnswer();
        assertEquals(List.of("out:ok ", "out:\uD83D\uDC4D done", "out:\n"), writes());
    }

    @Test
    void withExecEveryPieceIsWrittenAtOnceAndTheClockHasNothingToDo() {
        Console console = console(false, 0, false, true);
        console.answer("a");
        console.answer("b");
        assertEquals(List.of("out:a", "out:b"), writes());
        assertEquals(0, clock.pending());
    }

    // ---- the waiting line

    @Test
    void theWaitingLineComes300MsAfterTheRequestTurnsAndIsErasedBeforeTheText() {
        Console console = console(false, 80, false, false);
        console.model("llama3.2");
        console.requestSent();
        clock.advanceMillis(299);
        assertEquals(List.of(), writes());
        clock.advanceMillis(1);
        clock.advanceMillis(100);
        clock.advanceMillis(100);
        clock.advanceMillis(100);
        clock.advanceMillis(100);
        console.answer("Hi\n");
        assertEquals(List.of("err:\r- waiting for llama3.2", "err:\r\\ waiting for llama3.2",
                "err:\r| waiting for llama3.2", "err:\r/ waiting for llama3.2", "err:\r- waiting for llama3.2",
                ERASE, "out:Hi\n"), writes());
        clock.advanceMillis(1000);
        assertEquals(7, writes().size(), writes().toString());
    }

    @Test
    void textWithin300MsMeansNoWaitingLineAtAll() {
        Console console = console(true, 80, false, false);
        console.model("llama3.2");
        console.requestSent();
        clock.advanceMillis(200);
        console.answer("Quick.\n");
        clock.advanceMillis(5000);
        console.endAnswer();
        assertEquals(List.of("out:Quick.\n", "out:\n"), writes());
    }

    @Test
    void neverOnAStderrThatIsNotATerminalNorUnderJson() {
        for (Console console : List.of(console(true, 0, false, false), console(true, 80, true, false))) {
            console.model("llama3.2");
            console.requestSent();
            clock.advanceMillis(10_000);
            console.report(new ModelException(ErrorCode.RATE_LIMITED, "Model busy, try again", null));
        }
        assertEquals(List.of("err:aii: Model busy, try again\n",
                "err:{\"error\":\"rate_limited\",\"message\":\"Model busy, try again\",\"exitCode\":4}\n"), writes());
    }

    @Test
    void erasedBeforeALogLineAWarningAnErrorAPromptOrALinePrompt() {
        Console console = console(false, 80, false, true);
        console.model("m");
        List<Runnable> others = List.of(
                () -> console.commandLog("ls"),
                () -> console.warning("careful"),
                () -> console.report(new ModelException(ErrorCode.RATE_LIMITED, "Model busy, try again", null)),
                () -> console.hint("use /new to start a fresh conversation"),
                console::beforePrompt,
                () -> console.linePrompt("> "));
        for (Runnable other : others) {
            console.requestSent();
            clock.advanceMillis(300);
            other.run();
        }
        assertEquals(List.of(
                "err:\r- waiting for m", ERASE, "err:aii: $ ls\n",
                "err:\r- waiting for m", ERASE, "err:aii: warning: careful\n",
                "err:\r- waiting for m", ERASE, "err:aii: Model busy, try again\n",
                "err:\r- waiting for m", ERASE, "err:aii: use /new to start a fresh conversation\n",
                "err:\r- waiting for m", ERASE,
                "err:\r- waiting for m", ERASE, "out:> "), writes());
    }

    @Test
    void aStartedLineOnAStdoutTerminalIsEndedBeforeTheLineIsDrawn() {
        Console console = console(true, 80, false, true);
        console.model("m");
        console.answer("Let me look");
        console.requestSent();
        clock.advanceMillis(300);
        console.answer("Found it.");
        assertEquals(List.of("out:Let me look", "out:\n", "err:\r- waiting for m", ERASE, "out:Found it."),
                writes());
    }

    @Test
    void aServersModelNameIsShownEscapedAndCutToTheTerminalsWidth() {
        Console console = console(false, 30, false, false);
        console.model("evil\u001b]0;owned\u0007\u202Ename-that-is-long");
        console.requestSent();
        clock.advanceMillis(300);
        String drawn = writes().getFirst();
        assertEquals("err:\r- waiting for evil\\x1B]0;o...", drawn);
        assertTrue(drawn.length() - "err:\r".length() <= 29, drawn);
        assertTrue(drawn.codePoints().skip(5).noneMatch(cp -> cp < 0x20 || (cp >= 0x7F && cp < 0xA0)), drawn);
    }

    @Test
    void stoppingWithoutALineDrawnWritesNothingAndALateTickDrawsNothing() {
        Console console = console(false, 80, false, false);
        console.model("m");
        console.requestSent();
        clock.advanceMillis(100);
        console.stopWaiting();
        console.requestSent();
        clock.advanceMillis(250);     // the first request's tick was due at 300: it must not draw
        assertEquals(List.of(), writes());
        clock.advanceMillis(50);
        assertEquals(List.of("err:\r- waiting for m"), writes());
    }

    @Test
    void closingErasesTheLineAndStopsTheClock() {
        Console console = console(false, 80, false, false);
        console.model("m");
        console.requestSent();
        clock.advanceMillis(300);
        console.close();
        clock.advanceMillis(1000);
        assertEquals(List.of("err:\r- waiting for m", ERASE), writes());
        assertTrue(clock.closed());
    }

    @Test
    void withoutAModelNameThereIsNoWaitingLine() {
        Console console = console(false, 80, false, false);
        console.requestSent();
        clock.advanceMillis(1000);
        assertEquals(List.of(), writes());
    }

    // ---- Ctrl-C

    @Test
    void afterCtrlCOnAStdoutTerminalTheLineIsEndedWhereverItStood() {
        Console atStart = console(true, 0, false, false);
        atStart.interrupted();
        Console midLine = console(true, 0, false, false);
        midLine.answer("Counting: one, two");
        midLine.interrupted();
        assertEquals(List.of("out:\n", "out:Counting: one, two", "out:\n"), writes());
    }

    @Test
    void afterCtrlCWhileWaitingTheLineIsErasedAndTheCtrlCLineEnded() {
        Console console = console(true, 80, false, false);
        console.model("m");
        console.requestSent();
        clock.advanceMillis(300);
        console.interrupted();
        assertEquals(List.of("err:\r- waiting for m", ERASE, "out:\n"), writes());
    }

    @Test
    void afterCtrlCWithStdoutAPipeTheTerminalsStderrGetsTheLineFeedButNeverUnderJson() {
        Console piped = console(false, 80, false, false);
        piped.answer("partial");
        piped.interrupted();
        Console json = console(false, 80, true, false);
        json.interrupted();
        Console noTerminal = console(false, 0, false, false);
        noTerminal.interrupted();
        assertEquals(List.of("out:partial", "err:\n"), writes());
    }
}
