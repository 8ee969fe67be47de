package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.Availability;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.testkit.FakeOpenAiServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AvailabilityTest {

    @Test
    void theOnlyModelIsUsedWhenAiiModelIsUnset() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("llama3.2:latest");
                OpenAiBackend backend = Fixture.backend(server)) {
            assertTrue(backend.availability().isAvailable());
            assertEquals("llama3.2:latest via " + server.baseUrl(), backend.variant());
            assertEquals(List.of("/v1/models"), server.requests().stream().map(r -> r.path()).toList());
            assertEquals("GET", server.requests().getFirst().method());
        }
    }

    @Test
    void aListedAiiModelIsUsed() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("a", "b");
                OpenAiBackend backend = Fixture.backend(server, Map.of("AII_MODEL", "b"))) {
            assertTrue(backend.availability().isAvailable());
            assertEquals("b via " + server.baseUrl(), backend.variant());
        }
    }

    @Test
    void anOllamaNameWithoutItsLatestTagIsAccepted() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("qwen3:8b", "llama3.2:latest");
                OpenAiBackend backend = Fixture.backend(server, Map.of("AII_MODEL", "llama3.2"))) {
            assertTrue(backend.availability().isAvailable());
            assertEquals("llama3.2 via " + server.baseUrl(), backend.variant());
        }
    }

    @Test
    void anUnlistedAiiModelIsUnavailableListingTheNames() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("a", "b");
                OpenAiBackend backend = Fixture.backend(server, Map.of("AII_MODEL", "nope"))) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_MODEL, e.code());
            assertEquals("Model nope is not available at " + server.baseUrl() + "\nset AII_MODEL to one of: a, b",
                    e.getMessage());
            assertEquals(Optional.of("the server lists 2 models, not nope"), e.detail());
        }
    }

    @Test
    void severalModelsWithoutAiiModelIsUnavailableListingTheNames() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("a", "b", "c");
                OpenAiBackend backend = Fixture.backend(server)) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_MODEL, e.code());
            assertEquals("No model chosen at " + server.baseUrl()
                    + "\nchoose one with --model NAME or set AII_MODEL to one of: a, b, c", e.getMessage());
            assertEquals(Optional.of("neither --model nor AII_MODEL is set and the server lists 3 models"), e.detail());
        }
    }

    @Test
    void aServerWithoutModelsIsUnavailableSayingNone() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models();
                OpenAiBackend unset = Fixture.backend(server);
                OpenAiBackend named = Fixture.backend(server, Map.of("AII_MODEL", "llama3.2"))) {
            ModelException e = problem(unset.availability());
            assertEquals(ErrorCode.UNAVAILABLE_MODEL, e.code());
            assertEquals("No model chosen at " + server.baseUrl()
                    + "\nchoose one with --model NAME or set AII_MODEL to one of: (none)", e.getMessage());
            assertEquals(Optional.of("the server lists no models"), e.detail());
            assertEquals("Model llama3.2 is not available at " + server.baseUrl()
                    + "\nset AII_MODEL to one of: (none)", problem(named.availability()).getMessage());
        }
    }

    @Test
    void modelNamesAServerListsReachTheMessageWithWhatATerminalActsOnEscaped() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("good", "evil\u001b]0;owned\u0007");
                OpenAiBackend unset = Fixture.backend(server);
                OpenAiBackend named = Fixture.backend(server, Map.of("AII_MODEL", "x\u001b[8m"))) {
            assertEquals("No model chosen at " + server.baseUrl() + "\nchoose one with --model NAME or set AII_MODEL"
                    + " to one of: good, evil\\x1B]0;owned\\x07", problem(unset.availability()).getMessage());
            assertEquals("Model x\\x1B[8m is not available at " + server.baseUrl()
                    + "\nset AII_MODEL to one of: good, evil\\x1B]0;owned\\x07", problem(named.availability()).getMessage());
        }
    }

    @Test
    void theChosenModelIsKnownOnceTheServerIsAvailable() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("only-one");
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(Optional.empty(), backend.chosenModel());
            assertTrue(backend.availability().isAvailable());
            assertEquals(Optional.of("only-one"), backend.chosenModel());
        }
    }

    @Test
    void aServerThatIsDownIsUnreachable() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port + "/v1";
        try (OpenAiBackend backend = Fixture.backend(base, Timeouts.defaults())) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(3, e.code().exitCode());
            assertEquals("Cannot reach the model server at " + base
                    + "\nstart it, or point AII_BASE_URL at a running OpenAI-compatible server", e.getMessage());
            assertEquals(Optional.of("GET " + base + "/models: connection refused"), e.detail());
        }
    }

    @Test
    void aBaseUrlThatIsNotAnHttpUrlIsUnreachable() {
        for (String base : List.of("localhost:11434/v1", "notaurl", "ftp://localhost/v1", "http://local host/v1")) {
            try (OpenAiBackend backend = Fixture.backend(base, Timeouts.defaults())) {
                ModelException e = problem(backend.availability());
                assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code(), base);
                String hint = base.contains("://") ? "" : "\ndid you mean http://" + base + " ?";
                assertEquals("Cannot reach the model server at " + base
                        + "\nstart it, or point AII_BASE_URL at a running OpenAI-compatible server" + hint, e.getMessage());
                assertTrue(e.detail().orElseThrow().startsWith("GET " + base + "/models: not an http:// or https:// URL: "),
                        e.detail().orElseThrow());
            }
        }
    }

    @Test
    void aServerThatDoesNotAnswerInTimeIsUnreachable() throws IOException {
        Timeouts quick = Timeouts.defaults().withAvailability(Duration.ofMillis(300));
        try (FakeOpenAiServer server = FakeOpenAiServer.start().delay("/v1/models", Duration.ofSeconds(30));
                OpenAiBackend backend = Fixture.backend(server, Map.of(), quick)) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(Optional.of("GET " + server.baseUrl() + "/models: no answer within 300 ms"), e.detail());
        }
    }

    @Test
    void aModelListThatFailsMakesTheServerUnreachableWithStatusAndBody() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().modelsAnswer(404, "404 page not found");
                OpenAiBackend backend = Fixture.backend(server)) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(Optional.of("GET " + server.baseUrl() + "/models: HTTP 404: 404 page not found"), e.detail());
        }
    }

    @Test
    void anAnswerThatIsNotAModelListMakesTheServerUnreachable() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().modelsAnswer(200, "<html>hello</html>");
                OpenAiBackend backend = Fixture.backend(server)) {
            ModelException e = problem(backend.availability());
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(Optional.of("GET " + server.baseUrl() + "/models: not an OpenAI model list: <html>hello</html>"),
                    e.detail());
        }
    }

    @Test
    void theApiKeyIsSentAsABearerToken() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start();
                OpenAiBackend withKey = Fixture.backend(server, Map.of("AII_API_KEY", "sk-test-123"));
                OpenAiBackend without = Fixture.backend(server)) {
            withKey.availability();
            without.availability();
            assertEquals(Optional.of("Bearer sk-test-123"), server.requests().get(0).header("Authorization"));
            assertEquals(Optional.empty(), server.requests().get(1).header("Authorization"));
        }
    }

    @Test
    void theLanguagesAreUnknown() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start(); OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(Optional.empty(), backend.supportedLanguages());
        }
    }

    private static ModelException problem(Availability availability) {
        assertFalse(availability.isAvailable());
        return availability.problem().orElseThrow();
    }
}
