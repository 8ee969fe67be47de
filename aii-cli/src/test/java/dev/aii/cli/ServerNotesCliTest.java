package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What aii says on stderr about a server: what the server said after an
 * error (cli.md §9.8), an answer cut off by the output limit (§9.12), a busy
 * server being waited for, and a bad {@code AII_TIMEOUT} (§9.6).
 */
class ServerNotesCliTest {

    @TempDir
    Path home;

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).workingDirectory(home).stdinTerminal();
    }

    private static ModelException jinja() {
        return ModelException.internal("The chat request to the model server failed with HTTP 500",
                "HTTP 500: {\"error\":{\"code\":500,\"message\":\"tools param requires --jinja flag\"}}", null)
                .withServerMessage("tools param requires --jinja flag");
    }

    @Test
    void aServerErrorEndsWithWhatTheServerSaid() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Fail(jinja())));
        assertEquals(1, cli.run("-x", "What OS?"));
        assertEquals("aii: The chat request to the model server failed with HTTP 500\n"
                + "aii: server said: tools param requires --jinja flag\n", cli.err());
    }

    @Test
    void underJsonWhatTheServerSaidStaysInTheDetail() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Fail(jinja())));
        assertEquals(1, cli.run("--json", "What OS?"));
        assertEquals("{\"error\":\"internal_error\",\"message\":\"The chat request to the model server failed with HTTP 500\","
                + "\"detail\":\"HTTP 500: {\\\"error\\\":{\\\"code\\\":500,\\\"message\\\":\\\"tools param requires --jinja flag\\\"}}\","
                + "\"exitCode\":1}\n", cli.err());
    }

    @Test
    void whatTheServerSaidIsEscapedAsCommandsAre() {
        ModelException e = ModelException.rateLimited("HTTP 429").withServerMessage("slow down\u001b[2J\nnow\u202e!");
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Fail(e)));
        assertEquals(ErrorCode.RATE_LIMITED.exitCode(), cli.run("hi"));
        assertEquals("aii: Model busy, try again\naii: server said: slow down\\x1B[2J\\nnow\\u{202E}!\n", cli.err());
    }

    @Test
    void anAnswerCutOffByTheOutputLimitKeepsItsTextAndSaysSo() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Text("The start of"),
                new ScriptedModel.Step.CutOff()));
        assertEquals(0, cli.run("hi"));
        assertEquals("The start of\n", cli.out());
        assertEquals("aii: the answer was cut off by the server's output limit\n", cli.err());
    }

    @Test
    void underJsonACutOffAnswerIsSilent() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Text("The start of"),
                new ScriptedModel.Step.CutOff()));
        assertEquals(0, cli.run("--json", "hi"));
        assertEquals("The start of\n", cli.out());
        assertEquals("", cli.err());
    }

    @Test
    void waitingForABusyServerIsNotedOncePerAnswer() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Waiting("HTTP 503: Loading model"),
                new ScriptedModel.Step.Waiting("HTTP 503: Loading model"), new ScriptedModel.Step.Text("Ready.")));
        assertEquals(0, cli.run("hi"));
        assertEquals("Ready.\n", cli.out());
        assertEquals("aii: the model server is busy (HTTP 503: Loading model); waiting for it, Ctrl-C to stop\n",
                cli.err());
    }

    @Test
    void underJsonWaitingIsSilent() {
        CliHarness cli = cli(new ScriptedModel().answer(new ScriptedModel.Step.Waiting("HTTP 429"),
                new ScriptedModel.Step.Text("ok")));
        assertEquals(0, cli.run("-j", "hi"));
        assertEquals("", cli.err());
    }

    @Test
    void aBadTimeoutIsAWarningAndTheDefault() {
        for (String bad : new String[] {"0", "-5", "1.5", "soon", "10s"}) {
            CliHarness cli = cli(new ScriptedModel().answerText("ok")).env("AII_BASE_URL", "http://127.0.0.1:9/v1")
                    .env("AII_TIMEOUT", bad);
            assertEquals(0, cli.run("hi"), bad);
            assertEquals("aii: warning: AII_TIMEOUT=" + bad + " is not a positive whole number of seconds; using 120\n",
                    cli.err(), bad);
        }
        CliHarness good = cli(new ScriptedModel().answerText("ok")).env("AII_BASE_URL", "http://127.0.0.1:9/v1")
                .env("AII_TIMEOUT", "30");
        assertEquals(0, good.run("hi"));
        assertEquals("", good.err());
    }
}
