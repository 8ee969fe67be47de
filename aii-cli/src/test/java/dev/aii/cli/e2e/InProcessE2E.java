package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.gguf.Models;
import dev.aii.testkit.gguf.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code bin/aii} with {@code --model-file}: the constructed models
 * run by llama.cpp inside aii's JVM (the libraries the build copied beside
 * the jars), with no server anywhere.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class InProcessE2E {

    private static final Path MODELS = Path.of(System.getProperty("aii.it.models", "target/in-process-models"));
    private static final Path TEMPLATE = Path.of(System.getProperty("aii.it.llamacpp.template",
            "../aii-llamacpp/target/llamacpp/templates/Qwen-Qwen2.5-7B-Instruct.jinja"));

    @TempDir
    Path root;

    @BeforeAll
    static void writeTheModels() throws IOException {
        Files.createDirectories(MODELS);
        String template = Files.readString(TEMPLATE);
        for (TinyModel.Script script : List.of(Models.switching(), Models.echo(), Models.failsMidStream(),
                Models.lines(1500), Models.lines(200))) {
            Path file = file(script);
            if (!Files.exists(file)) {
                new TinyModel(script).write(file, template);
            }
        }
    }

    private static Path file(TinyModel.Script script) {
        String name = script.name().equals("tiny-lines") ? "tiny-lines-" + script.plain().size() : script.name();
        return MODELS.resolve(name + ".gguf").toAbsolutePath();
    }

    private AiiProcess aii(Path dir) throws IOException {
        return new AiiProcess(dir).env("AII_THREADS", "1");
    }

    @Test
    void aPlainPromptGetsThePlainAnswerByteForByteWithNoServer() throws Exception {
        Result r = aii(root).run("--model-file", file(Models.switching()).toString(), "Hello");
        assertEquals(new Result(0, Models.PLAIN_ANSWER + "\n", ""), r);
    }

    @Test
    void aiiModelFileNamesTheModelToo() throws Exception {
        Result r = aii(root).env("AII_MODEL_FILE", file(Models.switching()).toString()).run("Hello");
        assertEquals(new Result(0, Models.PLAIN_ANSWER + "\n", ""), r);
    }

    @Test
    void modelInfoShowsTheFileItsQuantisationAndItsContextWindow() throws Exception {
        Path file = file(Models.switching());
        Result r = aii(root).run("--model-file", file.toString(), "-m");
        assertEquals(new Result(0, "Context window: 8192 tokens\nModel variant: " + file
                + " (llama ?B all F32, in process)\nSupported languages: unknown\n", ""), r);
    }

    @Test
    void execRunsTheCallAfterApprovalOnATerminalAndShowsTheClosingText() throws Exception {
        String prompt = "aii: run this command?\r\n  echo hello from llama-server\r\n"
                + "  [y] yes once   [a] always allow exactly \"echo hello from llama-server\"   [N] no\r\n> ";
        try (PtyDriver pty = aii(root).onTerminal(List.of("--model-file", file(Models.echo()).toString(), "-x",
                "Say hello using echo"))) {
            pty.awaitOutput(prompt, AiiProcess.LIMIT);
            pty.type("y\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
            assertTrue(pty.filtered().endsWith(prompt + "y\r\naii: $ echo hello from llama-server\r\n"
                    + Models.CLOSING_ANSWER + "\r\n"), pty.filtered());
        }
    }

    @Test
    void aToolCallTheGrammarRejectsIsExitFourAfterTheTextNotAJvmAbort() throws Exception {
        Result r = aii(root).run("--model-file", file(Models.failsMidStream()).toString(), "-x", "Go");
        assertEquals(4, r.exit(), r.err());
        assertEquals(Models.FAILING_TEXT, r.out());
        assertTrue(r.err().startsWith("aii: llama.cpp failed while answering: "), r.err());
    }

    @Test
    void ctrlCStopsALongAnswerWithExit130() throws Exception {
        Running run = aii(root).start("--model-file", file(Models.lines(1500)).toString(), "Go on");
        run.awaitStdout(Models.line(2));
        run.interrupt();
        Result r = run.awaitExit();
        assertEquals(130, r.exit(), r.err());
        assertTrue(r.out().startsWith(Models.line(1) + Models.line(2)), r.out());
        assertTrue(!r.out().contains(Models.line(1500)), "the answer ran to its end");
    }

    @Test
    void twoProcessesAnswerFromOneModelFileAtOnce() throws Exception {
        Path file = file(Models.lines(200));
        Running first = aii(root.resolve("a")).start("--model-file", file.toString(), "Go on");
        Running second = aii(root.resolve("b")).start("--model-file", file.toString(), "Go on");
        StringBuilder all = new StringBuilder();
        for (int i = 1; i <= 200; i++) {
            all.append(Models.line(i));
        }
        assertEquals(new Result(0, all + "\n", ""), first.awaitExit());
        assertEquals(new Result(0, all + "\n", ""), second.awaitExit());
    }

    @Test
    void aFileThatIsNotGgufIsUnavailableModel() throws Exception {
        Path notes = Files.writeString(root.resolve("notes.gguf"), "hello\n");
        Result r = aii(root).run("--model-file", notes.toString(), "Hello");
        assertEquals(new Result(3, "", "aii: Cannot load the model " + notes + "\n"
                + "aii: it is not a GGUF file (the format llama.cpp reads)\n"), r);
        Result json = aii(root).run("--json", "--model-file", notes.toString(), "Hello");
        assertEquals("{\"error\":\"unavailable_model\",\"message\":\"Cannot load the model " + notes
                + "\\nit is not a GGUF file (the format llama.cpp reads)\",\"detail\":\"the file starts with "
                + "68656c6c, not \\\"GGUF\\\"\",\"exitCode\":3}\n", json.err());
    }

    @Test
    void theInteractiveHeaderNamesTheFileInProcessAndTurnsContinue() throws Exception {
        try (PtyDriver pty = aii(root).onTerminal(List.of("--model-file", file(Models.switching()).toString(), "-i"))) {
            pty.awaitOutput("aii \u2014 tiny-switch.gguf (in process)\r\nType /new to reset, /quit to exit.\r\n",
                    AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Hello\n");
            pty.awaitOutput(Models.PLAIN_ANSWER + "\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Hello again\n");
            pty.awaitOutput(Models.PLAIN_ANSWER + "\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.filtered());
        }
    }
}
