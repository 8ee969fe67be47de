package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ModelException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InteractiveTest {

    private static final String HEADER = "aii \u2014 Apple Intelligence Interface\nType /new to reset, /quit to exit.\n";

    @TempDir
    Path home;

    private CliHarness cli(ScriptedModel model, String input) {
        return new CliHarness(home).model(model).stdin(input);
    }

    @Test
    void headerPromptAnswerAndQuit() {
        ScriptedModel model = new ScriptedModel().answerText("Hi!");
        CliHarness cli = cli(model, "hello\n/quit\n");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> Hi!\n> ", cli.out());
        assertEquals(List.of("hello"), model.prompts);
        assertEquals("", cli.err());
    }

    @Test
    void exitAlsoLeaves() {
        CliHarness cli = cli(new ScriptedModel(), "/exit\nnot read\n");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> ", cli.out());
    }

    @Test
    void endOfInputLeavesWithZero() {
        CliHarness cli = cli(new ScriptedModel(), "");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> ", cli.out());
    }

    @Test
    void linesAreTrimmedOfSpacesAndTabsAndEmptyLinesPromptAgain() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model, "\n  \t \n \t what now? \t\n  /quit  \n");
        assertEquals(0, cli.run("-i"));
        assertEquals(List.of("what now?"), model.prompts);
        assertEquals(HEADER + "> > > ok\n> ", cli.out());
    }

    @Test
    void newClearsTheScreenReprintsTheHeaderAndStartsAFreshConversation() {
        ScriptedModel model = new ScriptedModel().answerText("one").answerText("two");
        CliHarness cli = cli(model, "first\n/new\nsecond\n");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> one\n> \u001b[2J\u001b[H" + HEADER + "> two\n> ", cli.out());
        assertEquals(2, model.sessionsOpened);
        assertEquals(2, model.sessionsClosed);
    }

    @Test
    void thePositionalIsTheSystemPrompt() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli(model, "/new\n/quit\n");
        assertEquals(0, cli.run("-i", "You are terse."));
        assertEquals(List.of(Optional.of("You are terse."), Optional.of("You are terse.")), model.instructions);
    }

    @Test
    void anEmptySystemPromptIsNone() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli(model, "/quit\n");
        assertEquals(0, cli.run("-i", ""));
        assertEquals(List.of(Optional.empty()), model.instructions);
    }

    @Test
    void aGenerationErrorIsReportedAndTheSessionContinues() {
        ScriptedModel model = new ScriptedModel()
                .answer(new ScriptedModel.Step.Text("par"),
                        new ScriptedModel.Step.Fail(ModelException.unsupportedLanguage("unsupportedLanguageOrLocale")))
                .answerText("fine");
        CliHarness cli = cli(model, "one\ntwo\n");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> par> fine\n> ", cli.out());
        assertEquals("aii: Prompt language not supported\n", cli.err());
    }

    @Test
    void contextExceededAddsTheNewHint() {
        ScriptedModel model = new ScriptedModel().contextSize(4096)
                .answer(new ScriptedModel.Step.Fail(ModelException.contextExceeded(4096, null)));
        CliHarness cli = cli(model, "long\n");
        assertEquals(0, cli.run("-i"));
        assertEquals("aii: Exceeds 4096-token context window\n"
                + "aii: try a shorter input or use /new to reset context in interactive mode\n"
                + "aii: use /new to start a fresh conversation\n", cli.err());
    }

    @Test
    void contextExceededHintUnderJsonIsAJsonLine() {
        ScriptedModel model = new ScriptedModel().contextSize(4096)
                .answer(new ScriptedModel.Step.Fail(ModelException.contextExceeded(4096, "exceededContextWindowSize")));
        CliHarness cli = cli(model, "long\n");
        assertEquals(0, cli.run("-i", "--json"));
        assertEquals("{\"error\":\"context_exceeded\",\"message\":\"Exceeds 4096-token context window\\n"
                + "try a shorter input or use /new to reset context in interactive mode\",\"detail\":"
                + "\"exceededContextWindowSize\",\"exitCode\":4}\n"
                + "{\"hint\":\"use /new to start a fresh conversation\"}\n", cli.err());
    }

    @Test
    void repetitionIsReportedAndTheSessionContinues() {
        String line = "I will say this again because it bears repeating often.\n";
        ScriptedModel model = new ScriptedModel().contextSize(4096)
                .answerText(line, line, "never shown\n")
                .answerText("ok");
        CliHarness cli = cli(model, "loop\nnext\n");
        assertEquals(0, cli.run("-i"));
        assertEquals(HEADER + "> " + line + line + "...\n> ok\n> ", cli.out());
        assertTrue(cli.err().startsWith("aii: Response appears to be repeating \u2014 likely exceeded the "
                + "4096-token context window\n"), cli.err());
        assertTrue(cli.err().endsWith("aii: use /new to start a fresh conversation\n"), cli.err());
    }

    @Test
    void ctrlCStopsTheAnswerAndReturnsToThePrompt() throws Exception {
        ScriptedModel model = new ScriptedModel()
                .answer(new ScriptedModel.Step.Text("thinking"), new ScriptedModel.Step.AwaitCancel(),
                        new ScriptedModel.Step.Text("never"))
                .answerText("second");
        CliHarness cli = cli(model, "one\ntwo\n");
        Thread presser = Thread.ofVirtual().start(() -> {
            try {
                model.waitingForCancel.await();
            } catch (InterruptedException e) {
                return;
            }
            cli.interrupts.fire();
        });
        assertEquals(0, cli.run("-i"));
        presser.join();
        assertEquals(HEADER + "> thinking> second\n> ", cli.out());
        assertEquals(List.of("one", "two"), model.prompts);
    }
}
