package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.testkit.ScriptedTerminal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The waiting line through the whole command, on a clock the scripted model
 * moves in the middle of its answer: before the first text, between tool
 * calls, never under --json, and Ctrl-C while it shows.
 */
class WaitingCliTest {

    static final String LINE = "\r- waiting for Apple Intelligence";
    static final String ERASE = "\r\u001b[2K";

    @TempDir
    Path home;

    private CliHarness cli;

    private ScriptedModel.Step after(long millis) {
        return new ScriptedModel.Step.Run(() -> cli.ticker.advanceMillis(millis));
    }

    private static ScriptedModel.Step text(String s) {
        return new ScriptedModel.Step.Text(s);
    }

    @Test
    void aSlowFirstTextGetsTheLineAndTheTextComesAfterItsErasure() {
        ScriptedModel model = new ScriptedModel().answer(after(300), text("Paris."));
        cli = new CliHarness(home).model(model).stdinDevNull().stdoutTerminal().stderrTerminal();
        assertEquals(0, cli.run("what", "is", "the", "capital", "of", "France"));
        assertEquals(LINE + ERASE, cli.err());
        assertEquals("Paris.\n", cli.out());
    }

    @Test
    void eachRequestAfterAToolCallWaitsAfreshAndTheLogLineErasesTheLine() {
        ScriptedModel model = new ScriptedModel().answer(after(300),
                new ScriptedModel.Step.CallTool("{\"executable\":\"pwd\",\"arguments\":[]}"),
                after(299), after(1), text("Here."));
        cli = new CliHarness(home).model(model).stdinTerminal().stderrTerminal()
                .terminal(ScriptedTerminal.answering());
        assertEquals(0, cli.run("-x", "where", "am", "I"));
        assertEquals(LINE + ERASE + "aii: $ pwd\n" + LINE + ERASE, cli.err());
        assertEquals("Here.\n", cli.out());
    }

    @Test
    void underJsonOrWithStderrNotATerminalThereIsNoLine() {
        ScriptedModel json = new ScriptedModel().answer(after(5000), text("ok"));
        cli = new CliHarness(home).model(json).stdinDevNull().stderrTerminal();
        assertEquals(0, cli.run("-j", "hi"));
        assertEquals("", cli.err());
        ScriptedModel piped = new ScriptedModel().answer(after(5000), text("ok"));
        cli = new CliHarness(home).model(piped).stdinDevNull();
        assertEquals(0, cli.run("hi"));
        assertEquals("", cli.err());
    }

    @Test
    void aServerErrorAfterTheLineComesOnAClearedLine() {
        ScriptedModel model = new ScriptedModel().answer(after(400), new ScriptedModel.Step.Fail(
                dev.aii.model.ModelException.rateLimited("HTTP 429")));
        cli = new CliHarness(home).model(model).stdinDevNull().stderrTerminal();
        assertEquals(4, cli.run("hi"));
        assertEquals(LINE + "\r\\ waiting for Apple Intelligence" + ERASE + "aii: Model busy, try again\n", cli.err());
    }

    @Test
    void ctrlCWhileWaitingErasesTheLineAndEndsTheCtrlCLine() {
        ScriptedModel model = new ScriptedModel().answer(after(300),
                new ScriptedModel.Step.Run(() -> cli.interrupts.fire()), new ScriptedModel.Step.AwaitCancel());
        cli = new CliHarness(home).model(model).stdinDevNull().stdoutTerminal().stderrTerminal();
        assertEquals(OneShot.INTERRUPTED_EXIT, cli.run("hi"));
        assertEquals(LINE + ERASE, cli.err());
        assertEquals("\n", cli.out());
    }

    @Test
    void theInteractiveModeWaitsForEachLineAndThePromptComesOnAClearedLine() {
        ScriptedModel model = new ScriptedModel().answer(after(300), text("One.")).answer(text("Two."));
        cli = new CliHarness(home).model(model).stdin("first\nsecond\n").stderrTerminal();
        assertEquals(0, cli.run("-i"));
        assertEquals(LINE + ERASE, cli.err());
        assertEquals(Interactive.HEADER + "> One.\n> Two.\n> ", cli.out());
    }
}
