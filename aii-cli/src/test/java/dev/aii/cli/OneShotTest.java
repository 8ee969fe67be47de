package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.model.ModelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OneShotTest {

    @TempDir
    Path home;

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).workingDirectory(home);
    }

    @Test
    void promptOnlyIsSentAsIsAndTheAnswerEndsWithALineFeed() {
        ScriptedModel model = new ScriptedModel().answerText("Hello", ", world");
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(0, cli.run("hi there"));
        assertEquals(List.of("hi there"), model.prompts);
        assertEquals("Hello, world\n", cli.out());
        assertEquals("", cli.err());
    }

    @Test
    void pipedStdinAndPromptAreComposedByteForByte() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdin("line one\nline two\n");
        assertEquals(0, cli.run("summarise"));
        assertEquals(List.of("summarise\n\n--- CONTENT ---\nline one\nline two\n\n--- END CONTENT ---"), model.prompts);
    }

    @Test
    void stdinOnlyIsThePrompt() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdin("what is 2+2?");
        assertEquals(0, cli.run());
        assertEquals(List.of("what is 2+2?"), model.prompts);
    }

    @Test
    void invalidUtf8OnStdinBecomesReplacementCharacters() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdinBytes(new byte[] {'a', (byte) 0xff, 'b'});
        assertEquals(0, cli.run());
        assertEquals(List.of("a\uFFFDb"), model.prompts);
    }

    @Test
    void stdinFromDevNullAndNoPromptExitsQuietlyWithoutHelp() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli(model).stdinDevNull();
        assertEquals(0, cli.run());
        assertEquals("", cli.out());
        assertEquals("", cli.err());
        assertEquals(List.of(), model.prompts);
    }

    @Test
    void anEmptyFileWithAPromptIsThePromptAlone() throws Exception {
        Files.writeString(home.resolve("empty.txt"), "");
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(0, cli.run("-f", "empty.txt", "anything?"));
        assertEquals(List.of("anything?"), model.prompts);
    }

    @Test
    void emptyStdinAndNoPromptExitsQuietly() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli(model).stdin("");
        assertEquals(0, cli.run());
        assertEquals("", cli.out());
        assertEquals("", cli.err());
        assertEquals(List.of(), model.prompts);
    }

    @Test
    void fileAndPromptAreComposed() throws Exception {
        Files.writeString(home.resolve("notes.md"), "# Notes\nbuy milk");
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(0, cli.run("-f", "notes.md", "what should I buy?"));
        assertEquals(List.of("what should I buy?\n\n--- CONTENT ---\n# Notes\nbuy milk\n--- END CONTENT ---"),
                model.prompts);
    }

    @Test
    void fileWithStdinFromDevNullIsNotPipedContent() throws Exception {
        Files.writeString(home.resolve("notes.md"), "content");
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdinDevNull();
        assertEquals(0, cli.run("-f", "notes.md"));
        assertEquals(List.of("content"), model.prompts);
    }

    @Test
    void fileWithPipedStdinConflictsBeforeTheFileIsRead() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = cli(model).stdin("piped");
        assertEquals(2, cli.run("-f", "does-not-exist.txt", "hi"));
        assertEquals("aii: Cannot use both --file and piped stdin. Use one or the other\n", cli.err());
        assertEquals(List.of(), model.prompts);
    }

    @Test
    void fileWithPipedStdinUnderJson() {
        CliHarness cli = cli(new ScriptedModel()).stdin("piped");
        assertEquals(2, cli.run("--json", "-f", "x"));
        assertEquals("{\"error\":\"conflicting_input\",\"message\":\"Cannot use both --file and piped stdin. "
                + "Use one or the other\",\"exitCode\":2}\n", cli.err());
    }

    @Test
    void missingFileCannotBeRead() {
        CliHarness cli = cli(new ScriptedModel()).stdinTerminal();
        assertEquals(2, cli.run("-f", "missing.txt"));
        assertEquals("aii: Cannot read file: missing.txt\n", cli.err());
    }

    @Test
    void directoryCannotBeRead() throws Exception {
        Files.createDirectory(home.resolve("dir"));
        CliHarness cli = cli(new ScriptedModel()).stdinTerminal();
        assertEquals(2, cli.run("-j", "-f", "dir"));
        assertEquals("{\"error\":\"file_not_found\",\"message\":\"Cannot read file: dir\",\"detail\":\"Is a directory\","
                + "\"exitCode\":2}\n", cli.err());
    }

    @Test
    void invalidUtf8FileCannotBeRead() throws Exception {
        Files.write(home.resolve("bin.dat"), new byte[] {'o', 'k', (byte) 0xc3});
        CliHarness cli = cli(new ScriptedModel()).stdinTerminal();
        assertEquals(2, cli.run("-f", "./bin.dat", "what is it?"));
        assertEquals("aii: Cannot read file: ./bin.dat\n", cli.err());
    }

    @Test
    void preflightRefusesAPromptAsLongAsTheContext() {
        ScriptedModel model = new ScriptedModel().contextSize(4096).tokens(5000);
        CliHarness cli = cli(model).stdin("very long");
        assertEquals(4, cli.run("summarise"));
        assertEquals("aii: Input is 5000 tokens, exceeding the 4096-token context window\n"
                + "aii: try a shorter input or trim --file/stdin content\n", cli.err());
        assertEquals(List.of("summarise\n\n--- CONTENT ---\nvery long\n--- END CONTENT ---"), model.counted);
        assertEquals(List.of(), model.prompts);
    }

    @Test
    void preflightUnderJsonCarriesItsDetail() {
        ScriptedModel model = new ScriptedModel().contextSize(100).tokens(100);
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(4, cli.run("-j", "x"));
        assertEquals("{\"error\":\"context_exceeded\",\"message\":\"Input is 100 tokens, exceeding the 100-token "
                + "context window\\ntry a shorter input or trim --file/stdin content\",\"detail\":\"Pre-flight token "
                + "count check failed before calling the model\",\"exitCode\":4}\n", cli.err());
    }

    @Test
    void promptJustUnderTheContextIsSent() {
        ScriptedModel model = new ScriptedModel().contextSize(100).tokens(99).answerText("fine");
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(0, cli.run("x"));
        assertEquals("fine\n", cli.out());
    }

    @Test
    void generationErrorAfterTextKeepsTheTextAndExitsFour() {
        ScriptedModel model = new ScriptedModel().answer(
                new ScriptedModel.Step.Text("partial answer"),
                new ScriptedModel.Step.Fail(ModelException.guardrailViolation("guardrailViolation")));
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(4, cli.run("x"));
        assertEquals("partial answer", cli.out());
        assertEquals("aii: Prompt blocked by safety filters\n", cli.err());
    }

    @Test
    void generationErrorOnATerminalStartsAFreshLineFirst() {
        ScriptedModel model = new ScriptedModel().answer(
                new ScriptedModel.Step.Text("partial"),
                new ScriptedModel.Step.Fail(ModelException.rateLimited(null)));
        CliHarness cli = cli(model).stdinTerminal().stdoutTerminal();
        assertEquals(4, cli.run("x"));
        assertEquals("partial\n", cli.out());
        assertEquals("aii: Model busy, try again\n", cli.err());
    }

    @Test
    void contextExceededDuringGeneration() {
        ScriptedModel model = new ScriptedModel().contextSize(4096).answer(
                new ScriptedModel.Step.Fail(ModelException.contextExceeded(4096, "exceededContextWindowSize")));
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(4, cli.run("x"));
        assertEquals("aii: Exceeds 4096-token context window\n"
                + "aii: try a shorter input or use /new to reset context in interactive mode\n", cli.err());
    }

    @Test
    void withoutExecNoToolAndNoInstructions() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model).stdinTerminal();
        assertEquals(0, cli.run("x"));
        assertEquals(List.of(Optional.empty()), model.instructions);
        assertEquals(List.of(List.of()), model.tools);
    }

    @Test
    void ctrlCStopsTheAnswerAndExits130() throws Exception {
        ScriptedModel model = new ScriptedModel().answer(
                new ScriptedModel.Step.Text("thinking"),
                new ScriptedModel.Step.AwaitCancel(),
                new ScriptedModel.Step.Text("never shown"));
        CliHarness cli = cli(model).stdinTerminal();
        Thread presser = Thread.ofVirtual().start(() -> {
            try {
                model.waitingForCancel.await();
            } catch (InterruptedException e) {
                return;
            }
            cli.interrupts.fire();
        });
        assertEquals(130, cli.run("x"));
        presser.join();
        assertEquals("thinking", cli.out());
        assertEquals("", cli.err());
    }

    @Test
    void composedPromptIsThePromptTheContentAndTheMarkers() {
        assertEquals(Optional.of("sum up\n\n--- CONTENT ---\nline 1\nline 2\n\n--- END CONTENT ---"),
                OneShot.compose(Optional.of("sum up"), List.of("line 1\n", "line 2\n")));
        assertEquals(Optional.of("line 1\nline 2"), OneShot.compose(Optional.empty(), List.of("line 1\n", "line 2")));
        assertEquals(Optional.of("sum up"), OneShot.compose(Optional.of("sum up"), List.of()));
        assertEquals(Optional.empty(), OneShot.compose(Optional.empty(), List.of()));
    }
}
