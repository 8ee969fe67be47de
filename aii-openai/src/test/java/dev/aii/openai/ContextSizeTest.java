package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.aii.testkit.FakeOpenAiServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextSizeTest {

    @Test
    void aiiContextSizeWinsAndNothingIsAsked() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(8192);
                OpenAiBackend backend = Fixture.backend(server, Map.of("AII_CONTEXT_SIZE", "1234"))) {
            assertEquals(1234, backend.contextSize());
            assertEquals(List.of(), server.requests());
        }
    }

    @Test
    void llamaCppPropsGiveTheSlotContext() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(8192);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(8192, backend.contextSize());
            assertEquals(List.of("/v1/models", "/props"), paths(server));
        }
    }

    @Test
    void aTopLevelNCtxInPropsIsUsedToo() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().propsAnswer(200, "{\"n_ctx\":16384}");
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(16384, backend.contextSize());
        }
    }

    @Test
    void ollamaShowGivesTheArchitecturesContextLength() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("llama3.2:latest").ollamaShow("llama", 131072);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(131072, backend.contextSize());
            assertEquals(List.of("/v1/models", "/props", "/api/show"), paths(server));
            assertEquals("{\"model\":\"llama3.2:latest\"}", server.requests("/api/show").getFirst().body());
        }
    }

    @Test
    void anOllamaNumCtxParameterWinsOverTheTrainedLength() throws IOException {
        String show = "{\"parameters\":\"num_ctx                        8192\\nstop \\\"<|eot_id|>\\\"\","
                + "\"model_info\":{\"general.architecture\":\"qwen3\",\"qwen3.context_length\":40960}}";
        try (FakeOpenAiServer server = FakeOpenAiServer.start().ollamaShowAnswer(200, show);
                OpenAiBackend backend = Fixture.backend(server, Map.of("AII_MODEL", "fake-model"))) {
            assertEquals(8192, backend.contextSize());
        }
    }

    @Test
    void aContextWindowInTheModelEntryIsUsedWithoutFurtherRequests() throws IOException {
        String models = "{\"object\":\"list\",\"data\":[{\"id\":\"apple-foundationmodel\",\"object\":\"model\","
                + "\"owned_by\":\"apple\",\"context_window\":4096}]}";
        String vllm = "{\"object\":\"list\",\"data\":[{\"id\":\"Qwen/Qwen3-8B\",\"max_model_len\":32768}]}";
        try (FakeOpenAiServer apfel = FakeOpenAiServer.start().modelsAnswer(200, models).props(999);
                FakeOpenAiServer vllmServer = FakeOpenAiServer.start().modelsAnswer(200, vllm);
                OpenAiBackend a = Fixture.backend(apfel);
                OpenAiBackend v = Fixture.backend(vllmServer)) {
            assertEquals(4096, a.contextSize());
            assertEquals(List.of("/v1/models"), paths(apfel));
            assertEquals(32768, v.contextSize());
        }
    }

    @Test
    void withoutAnyHintTheContextIs4096() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start(); OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(4096, backend.contextSize());
            assertEquals(List.of("/v1/models", "/props", "/api/show"), paths(server));
        }
    }

    @Test
    void theContextSizeIsAskedOnce() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(2048);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(2048, backend.contextSize());
            int asked = server.requests().size();
            assertEquals(2048, backend.contextSize());
            assertEquals(asked, server.requests().size());
        }
    }

    @Test
    void anEndpointThatNeverAnswersCostsOnlyTheDiscoveryTimeout() throws IOException {
        Timeouts quick = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(200),
                Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(30));
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(8192).ollamaShow("llama", 8192)
                .delay("/props", Duration.ofMinutes(5)).delay("/api/show", Duration.ofMinutes(5));
                OpenAiBackend backend = Fixture.backend(server, Map.of(), quick)) {
            int size = assertTimeoutPreemptively(Duration.ofSeconds(20), backend::contextSize);
            assertEquals(4096, size);
        }
    }

    @Test
    void theServerRootIsTheBaseWithoutItsV1() {
        assertEquals("http://localhost:8080", new Endpoints("http://localhost:8080/v1").root());
        assertEquals("http://host/openai", new Endpoints("http://host/openai/v1").root());
        assertEquals("http://localhost:1234", new Endpoints("http://localhost:1234").root());
        assertEquals("http://localhost:8080/props", new Endpoints("http://localhost:8080/v1").props().toString());
        assertEquals("http://localhost:11434/api/show",
                new Endpoints("http://localhost:11434/v1").ollamaShow().toString());
    }

    private static List<String> paths(FakeOpenAiServer server) {
        return server.requests().stream().map(r -> r.path()).toList();
    }
}
