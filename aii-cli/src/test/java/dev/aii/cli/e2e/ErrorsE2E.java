package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** What each failure of the server or the model looks like on stderr, and its exit code. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ErrorsE2E extends ServerFixture {


    @Test
    void aServerThatIsDownIsUnavailableWithItsBaseUrl() throws Exception {
        String down = FakeOpenAiServer.unreachableBaseUrl();
        Result r = aii.env("AII_BASE_URL", down).run("hello");
        assertEquals(new Result(3, "", "aii: Cannot reach the model server at " + down + "\n"
                + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"), r);
    }

    @Test
    void aBaseUrlWithoutItsSchemeNamesNoServerToReach() throws Exception {
        Result r = aii.env("AII_BASE_URL", "localhost:11434/v1").run("hello");
        assertEquals(new Result(3, "", "aii: Cannot reach the model server at localhost:11434/v1\n"
                + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"), r);
    }

    @Test
    void anUnknownModelIsUnavailableAndTheServersModelsAreListed() throws Exception {
        server.models("fake-model", "other-model");
        Result r = aii.env("AII_MODEL", "llama9").run("hello");
        assertEquals(new Result(3, "", "aii: Model llama9 is not available at " + server.baseUrl() + "\n"
                + "aii: set AII_MODEL to one of: fake-model, other-model\n"), r);
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void http429MeansTheModelIsBusy() throws Exception {
        server.enqueue(Reply.rateLimited());
        assertEquals(new Result(4, "", "aii: Model busy, try again\naii: server said: Rate limit reached, retry later\n"),
                aii.run("hello"));
    }

    @Test
    void aContextRefusalExceedsTheDiscoveredContextWindow() throws Exception {
        server.props(8192).enqueue(Reply.contextRefusal());
        assertEquals(new Result(4, "", "aii: Exceeds 8192-token context window\n"
                + "aii: try a shorter input or use /new to reset context in interactive mode\n"
                + "aii: server said: the request exceeds the available context size, try increasing it\n"),
                aii.run("hello"));
    }

    @Test
    void finishReasonLengthBeforeAnyTextIsAnAnswerCutOffByTheOutputLimit() throws Exception {
        // cli.md 9.12: context_exceeded only when the server says the context is full
        server.enqueue(Reply.lengthBeforeText());
        assertEquals(new Result(0, "\n", "aii: the answer was cut off by the server's output limit\n"), aii.run("hello"));
    }

    @Test
    void aPromptLongerThanTheContextIsRefusedBeforeTheModelIsAsked() throws Exception {
        server.props(4096).tokenizer(text -> 5000);
        Result r = aii.stdin("a long document").run("Summarize");
        assertEquals(new Result(4, "", "aii: Input is 5000 tokens, exceeding the 4096-token context window\n"
                + "aii: try a shorter input or trim --file/stdin content\n"), r);
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void aDroppedStreamKeepsThePartialTextOnStdout() throws Exception {
        server.enqueue(Reply.stream().text("Partial ", "answer").abort());
        assertEquals(new Result(1, "Partial answer",
                "aii: The connection to the model server closed in the middle of the answer\n"), aii.run("hello"));
    }

    @Test
    void aModelThatRepeatsItselfIsStoppedAfterTheFirstRepeat() throws Exception {
        String line = "The answer is forty-two, and that is all I can say.\n";
        server.enqueue(Reply.text(Collections.nCopies(200, line).toArray(String[]::new)));
        Result r = aii.run("What is the answer?");
        assertEquals(new Result(4, line + line + "...\n",
                "aii: Response appears to be repeating \u2014 likely exceeded the 4096-token context window\n"
                        + "aii: try a shorter input, limit expected response length or use /new to reset in "
                        + "interactive mode\n"), r);
    }

    @Test
    void underJsonEachErrorIsOneJsonLine() throws Exception {
        server.enqueue(Reply.rateLimited());
        Result r = aii.run("--json", "hello");
        assertEquals(new Result(4, "", "{\"error\":\"rate_limited\",\"message\":\"Model busy, try again\","
                + "\"detail\":\"HTTP 429: {\\\"error\\\":{\\\"message\\\":\\\"Rate limit reached, retry later\\\","
                + "\\\"type\\\":\\\"rate_limit_error\\\"}}\",\"exitCode\":4}\n"), r);
    }
}
