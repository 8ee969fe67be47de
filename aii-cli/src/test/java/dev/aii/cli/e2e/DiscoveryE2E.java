package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code AII_BASE_URL} unset and Foundation Models not available, aii
 * looks for Ollama on 127.0.0.1:11434, then llama-server on 127.0.0.1:8080:
 * fake servers bound on those very ports. A port something else holds fails
 * the test with a message saying so; it is never skipped.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DiscoveryE2E {

    static final int OLLAMA = 11434;
    static final int LLAMA_SERVER = 8080;
    static final String OLLAMA_BASE = "http://127.0.0.1:11434/v1";
    static final String LLAMA_SERVER_BASE = "http://127.0.0.1:8080/v1";
    static final String STUB = System.getProperty("aii.it.fmshim.stub", "../aii-ffm/target/test-native/libfmshim-stub.so");

    @TempDir
    Path tmp;

    /** Fails, naming the port, unless nothing listens on it. */
    static void assertFree(int port) throws IOException {
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(probe.isBound());
        } catch (BindException e) {
            throw new AssertionError("port " + port + " on 127.0.0.1 is in use (a model server such as Ollama or "
                    + "llama-server running?); this test needs it free", e);
        }
    }

    @Test
    void ollamaOnItsPortAnswersAndGetsNoKeyMeantForAnotherServer() throws Exception {
        assertFree(LLAMA_SERVER);
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA)) {
            ollama.enqueue(Reply.text("From Ollama."));
            Result r = new AiiProcess(tmp).env("AII_API_KEY", "sk-secret").run("say", "hi");
            assertEquals(new Result(0, "From Ollama.\n", ""), r);
            assertEquals("say hi", ollama.lastChatRequest().lastUserMessage());
            assertTrue(ollama.requests().stream().noneMatch(q -> q.headers().containsKey("authorization")),
                    ollama.requests().toString());
        }
    }

    @Test
    void llamaServerWhenNothingListensOnOllamasPort() throws Exception {
        assertFree(OLLAMA);
        try (FakeOpenAiServer llama = FakeOpenAiServer.startOn(LLAMA_SERVER)) {
            llama.enqueue(Reply.text("From llama-server."));
            assertEquals(new Result(0, "From llama-server.\n", ""), new AiiProcess(tmp).run("hi"));
        }
    }

    @Test
    void ollamaIsTriedFirstAndTheOtherIsNotAsked() throws Exception {
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA);
                FakeOpenAiServer llama = FakeOpenAiServer.startOn(LLAMA_SERVER)) {
            ollama.enqueue(Reply.text("Ollama."));
            assertEquals(new Result(0, "Ollama.\n", ""), new AiiProcess(tmp).run("hi"));
            assertEquals(List.of(), llama.requests());
        }
    }

    @Test
    void somethingElseOnOllamasPortIsPassedOver() throws Exception {
        try (FakeOpenAiServer other = FakeOpenAiServer.startOn(OLLAMA).modelsAnswer(404, "404 page not found");
                FakeOpenAiServer llama = FakeOpenAiServer.startOn(LLAMA_SERVER)) {
            llama.enqueue(Reply.text("llama-server."));
            assertEquals(new Result(0, "llama-server.\n", ""), new AiiProcess(tmp).run("hi"));
            assertEquals(List.of(), other.chatRequests());
        }
    }

    @Test
    void withNothingListeningTheAdviceNamesWhereAiiLookedAndTheModelFile() throws Exception {
        assertFree(OLLAMA);
        assertFree(LLAMA_SERVER);
        assertEquals(new Result(3, "", "aii: No model server found (tried " + OLLAMA_BASE + ", " + LLAMA_SERVER_BASE
                + ")\naii: start Ollama or llama-server, set AII_BASE_URL, or pass --model-file PATH.gguf\n"),
                new AiiProcess(tmp).run("hi"));
        assertEquals(new Result(3, "", "{\"error\":\"unavailable_not_supported\",\"message\":\"No model server "
                + "found (tried " + OLLAMA_BASE + ", " + LLAMA_SERVER_BASE + ")\\nstart Ollama or llama-server, set "
                + "AII_BASE_URL, or pass --model-file PATH.gguf\",\"detail\":\"AII_BASE_URL is not set and no server "
                + "answered GET /models at " + OLLAMA_BASE + " or " + LLAMA_SERVER_BASE + "\",\"exitCode\":3}\n"),
                new AiiProcess(tmp.resolve("json")).run("-j", "hi"));
    }

    @Test
    void theBannerAndModelInfoNameTheServerThatWasFound() throws Exception {
        assertFree(LLAMA_SERVER);
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA).models("llama3.2:latest")) {
            Result banner = new AiiProcess(tmp).stdin("/quit\n").run("-i");
            assertEquals(new Result(0, "aii \u2014 llama3.2:latest at " + OLLAMA_BASE + "\n"
                    + "Type /new to reset, /quit to exit.\n> ", ""), banner);
            Result info = new AiiProcess(tmp.resolve("info")).run("-m");
            assertEquals(0, info.exit(), info.err());
            assertTrue(info.out().contains("\nModel variant: llama3.2:latest via " + OLLAMA_BASE + "\n"), info.out());
        }
    }

    @Test
    void severalModelsAndNoneChosenNamesTheModelFlagAndTheFlagChooses() throws Exception {
        assertFree(LLAMA_SERVER);
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA).models("llama3.2", "qwen3:8b")) {
            assertEquals(new Result(3, "", "aii: No model chosen at " + OLLAMA_BASE + "\n"
                    + "aii: choose one with --model NAME or set AII_MODEL to one of: llama3.2, qwen3:8b\n"),
                    new AiiProcess(tmp).run("hi"));
            ollama.enqueue(Reply.text("Qwen here."));
            assertEquals(new Result(0, "Qwen here.\n", ""),
                    new AiiProcess(tmp.resolve("chosen")).env("AII_MODEL", "llama3.2").run("--model", "qwen3:8b", "hi"));
            assertEquals("qwen3:8b", ollama.lastChatRequest().json().path("model").asText());
        }
    }

    @Test
    void foundationModelsNotAvailableFallsBackToAServerElseSaysWhy() throws Exception {
        assertFree(LLAMA_SERVER);
        AiiProcess notEnabled = new AiiProcess(tmp).env("AII_SHIM_LIBRARY", Path.of(STUB).toAbsolutePath().toString())
                .env("FMSHIM_STUB_AVAILABILITY", "not_enabled");
        assertFree(OLLAMA);
        assertEquals(new Result(3, "", "aii: Apple Intelligence is not enabled\n"
                + "aii: enable it in System Settings \u2192 Apple Intelligence & Siri\n"), notEnabled.run("hi"));
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA)) {
            ollama.enqueue(Reply.text("Served."));
            assertEquals(new Result(0, "Served.\n", ""), notEnabled.run("hi"));
        }
    }

    @Test
    void foundationModelsAvailableIsUsedAndNoPortIsAsked() throws Exception {
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA)) {
            AiiProcess apple = new AiiProcess(tmp).env("AII_SHIM_LIBRARY", Path.of(STUB).toAbsolutePath().toString())
                    .env("FMSHIM_STUB_ANSWER", "From the stub.");
            assertEquals(new Result(0, "From the stub.\n", ""), apple.run("hi"));
            assertEquals(List.of(), ollama.requests());
        }
    }

    @Test
    void aNamedServerIsUsedAloneEvenWhenDown() throws Exception {
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA)) {
            String down = FakeOpenAiServer.unreachableBaseUrl();
            Result r = new AiiProcess(tmp).env("AII_BASE_URL", down).run("hi");
            assertEquals(3, r.exit(), r.err());
            assertTrue(r.err().startsWith("aii: Cannot reach the model server at " + down + "\n"), r.err());
            assertEquals(List.of(), ollama.requests());
        }
    }

    @Test
    void anOllamaUrlWithoutV1GetsTheHint() throws Exception {
        assertFree(LLAMA_SERVER);
        try (FakeOpenAiServer ollama = FakeOpenAiServer.startOn(OLLAMA)) {
            Result r = new AiiProcess(tmp).env("AII_BASE_URL", "http://127.0.0.1:11434").run("hi");
            assertEquals(new Result(3, "", "aii: Cannot reach the model server at http://127.0.0.1:11434\n"
                    + "aii: start it, or point AII_BASE_URL at a running OpenAI-compatible server\n"
                    + "aii: did you mean http://127.0.0.1:11434/v1 ?\n"
                    + "aii: server said: 404 page not found\n"), r);
            assertFalse(ollama.requests().stream().anyMatch(q -> q.path().contains("chat")));
        }
    }
}
