package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.model.Availability;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.testkit.FakeOpenAiServer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What a server said about a failure travels with the error, and the timeout comes from {@code AII_TIMEOUT}. */
class ServerSaidTest {

    @Test
    void theMessageIsTheJsonErrorMessageOrTheErrorStringOrTheStartOfTheBody() {
        assertEquals(Optional.of("tools param requires --jinja flag"), ServerErrors.serverMessage(
                "{\"error\":{\"code\":500,\"message\":\"tools param requires --jinja flag\",\"type\":\"server_error\"}}"));
        assertEquals(Optional.of("registry.ollama.ai/library/gemma:2b does not support tools"), ServerErrors.serverMessage(
                "{\"error\":\"registry.ollama.ai/library/gemma:2b does not support tools\"}"));
        assertEquals(Optional.of("404 page not found"), ServerErrors.serverMessage("404 page not found"));
        assertEquals(Optional.of("x".repeat(200)), ServerErrors.serverMessage("x".repeat(500)));
        assertEquals(Optional.empty(), ServerErrors.serverMessage(""));
        assertEquals(Optional.empty(), ServerErrors.serverMessage("  \n"));
    }

    @Test
    void anOllamaUrlWithoutV1SaysWhatOllamaSaid() throws Exception {
        // http://localhost:11434 instead of http://localhost:11434/v1: Ollama answers GET /models with a plain 404
        try (FakeOpenAiServer server = FakeOpenAiServer.start().modelsAnswer(404, "404 page not found");
                OpenAiBackend backend = Fixture.backend(server)) {
            Availability a = backend.availability();
            ModelException e = a.problem().orElseThrow();
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(Optional.of("404 page not found"), e.serverMessage());
        }
    }

    @Test
    void aModelWithoutToolSupportSaysSo() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(dev.aii.testkit.Reply.httpError(400,
                "{\"error\":\"registry.ollama.ai/library/gemma:2b does not support tools\"}"));
                OpenAiBackend backend = Fixture.backend(server);
                dev.aii.model.Session session = backend.openSession(dev.aii.model.SessionOptions.plain())) {
            ModelException e = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class,
                    () -> session.respond("Hi", piece -> { }));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals("The model server failed: bad request (HTTP 400)", e.getMessage());
            assertEquals(Optional.of("registry.ollama.ai/library/gemma:2b does not support tools"), e.serverMessage());
        }
    }

    @Test
    void aiiTimeoutIsAPositiveWholeNumberOfSeconds() {
        assertEquals(OptionalInt.of(30), OpenAiConfig.timeoutSeconds("30"));
        assertEquals(OptionalInt.of(5), OpenAiConfig.timeoutSeconds(" 5 "));
        for (String bad : new String[] {null, "", "0", "-1", "1.5", "2s", "abc", "99999999999", "+3", "0x10", "１２"}) {
            assertEquals(OptionalInt.empty(), OpenAiConfig.timeoutSeconds(bad), String.valueOf(bad));
        }
        assertEquals(Duration.ofSeconds(7), OpenAiConfig.fromEnvironment(
                Map.of("AII_BASE_URL", "http://127.0.0.1:1/v1", "AII_TIMEOUT", "7")).orElseThrow().timeout());
        assertEquals(Duration.ofSeconds(120), OpenAiConfig.fromEnvironment(
                Map.of("AII_BASE_URL", "http://127.0.0.1:1/v1", "AII_TIMEOUT", "soon")).orElseThrow().timeout());
    }
}
