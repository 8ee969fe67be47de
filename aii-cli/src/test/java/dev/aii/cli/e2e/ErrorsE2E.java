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
                + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"
                + "aii: did you mean http://localhost:11434/v1 ?\n"), r);
    }

    @Test
    void aBaseUrlWithoutV1IsToldWhereTheServerAnswers() throws Exception {
        Result plain = aii.env("AII_BASE_URL", server.rootUrl() + "/").run("hello");
        assertEquals(new Result(3, "", "aii: Cannot reach the model server at " + server.rootUrl() + "\n"
                + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"
                + "aii: did you mean " + server.baseUrl() + " ?\n"
                + "aii: server said: 404 page not found\n"), plain);
        Result json = aii.run("--json", "hello");
        assertEquals(new Result(3, "", "{\"error\":\"unavailable_server\",\"message\":\"Cannot reach the model "
                + "server at " + server.rootUrl() + "\\nstart it, or point AII_BASE_URL at a running OpenAI-compatible "
                + "server\\ndid you mean " + server.baseUrl() + " ?\",\"detail\":\"GET " + server.rootUrl()
                + "/models: HTTP 404: 404 page not found\",\"exitCode\":3}\n"), json);
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void httpsToAPlainHttpServerCannotReachIt() throws Exception {
        // A plain HTTP server answers the TLS greeting as a bad request, as Ollama's and llama-server's do.
        try (java.net.ServerSocket plain = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().start(() -> {
                while (true) {
                    try (java.net.Socket s = plain.accept()) {
                        s.getInputStream().read(new byte[512]);
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            });
            String https = "https://127.0.0.1:" + plain.getLocalPort() + "/v1";
            Result r = aii.env("AII_BASE_URL", https).run("hello");
            assertEquals(new Result(3, "", "aii: Cannot reach the model server at " + https + "\n"
                    + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"
                    + "aii: did you mean http://127.0.0.1:" + plain.getLocalPort() + "/v1 ?\n"), r);
            Result json = aii.run("-j", "hello");
            assertEquals(new Result(3, "", "{\"error\":\"unavailable_server\",\"message\":\"Cannot reach the model "
                    + "server at " + https + "\\nstart it, or point AII_BASE_URL at a running OpenAI-compatible server"
                    + "\\ndid you mean http://127.0.0.1:" + plain.getLocalPort() + "/v1 ?\","
                    + "\"detail\":\"GET " + https + "/models: Unrecognized SSL message, plaintext connection?\",\"exitCode\":3}\n"),
                    json);
        }
    }

    /** What Ollama answers when -x sends the tool to a model that cannot call tools. */
    static final String NO_TOOLS = "{\"error\":{\"message\":\"registry.ollama.ai/library/gemma2:2b does not support "
            + "tools\",\"type\":\"api_error\",\"param\":null,\"code\":null}}";
    /** What llama-server answers to tools when it was started without --jinja. */
    static final String NO_JINJA = "{\"error\":{\"code\":500,\"message\":\"tools param requires --jinja flag\","
            + "\"type\":\"server_error\"}}";

    @Test
    void aModelWithoutToolsOrAServerWithoutJinjaFailsTheChatRequestSayingWhy() throws Exception {
        server.enqueue(Reply.httpError(400, NO_TOOLS), Reply.httpError(500, NO_JINJA));
        for (int status : List.of(400, 500)) {
            Result r = aii.run("-x", "-j", "how full is my disk");
            assertEquals(4, r.exit(), r.err());
            org.junit.jupiter.api.Assertions.assertTrue(r.err().startsWith("{\"error\":\"server_error\",\"message\":"
                    + "\"The model server failed: " + (status == 400 ? "bad request" : "internal server error")
                    + " (HTTP " + status + ")\""), r.err());
            org.junit.jupiter.api.Assertions.assertTrue(r.err().contains(status == 400 ? "does not support tools"
                    : "tools param requires --jinja flag"), r.err());
        }
    }

    @Test
    void aModelListThatNeverAnswersIsAskedOnce() throws Exception {
        try (FakeOpenAiServer silent = FakeOpenAiServer.start().delay("/v1/models", java.time.Duration.ofMinutes(5))) {
            Result r = aii.env("AII_BASE_URL", silent.baseUrl()).run("hello");
            assertEquals(3, r.exit(), r.err());
            assertEquals(1, silent.requests("/v1/models").size());
            assertEquals(List.of(), silent.requests("/models"));
        }
    }

    @Test
    void aWrongPathWithoutModelsUnderV1GetsNoHint() throws Exception {
        Result r = aii.env("AII_BASE_URL", server.rootUrl() + "/api").run("hello");
        assertEquals(new Result(3, "", "aii: Cannot reach the model server at " + server.rootUrl() + "/api\n"
                + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"
                + "aii: server said: 404 page not found\n"), r);
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
