package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.testkit.FakeOpenAiServer;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TokenCountTest {

    @Test
    void llamaCppTokenizeCountsTheTokens() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096).tokenizer(s -> s.split(" ").length);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(OptionalInt.of(4), backend.countTokens("one two three four"));
            var request = server.requests("/tokenize").getFirst();
            assertEquals("POST", request.method());
            assertEquals("{\"content\":\"one two three four\"}", request.body());
            assertEquals(OptionalInt.of(1), backend.countTokens("again"));
        }
    }

    @Test
    void aServerWithoutTokenizeCannotCountAndIsNotAskedAgain() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096); OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(OptionalInt.empty(), backend.countTokens("hello"));
            assertEquals(OptionalInt.empty(), backend.countTokens("hello again"));
            assertEquals(1, server.requests("/tokenize").size());
        }
    }

    @Test
    void anAnswerWithoutTokensMeansNoTokenizer() throws Exception {
        // LM Studio answers unknown endpoints with 200 and an error object
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096)
                .tokenizeAnswer(200, "{\"error\":\"Unexpected endpoint or method. (POST /tokenize)\"}");
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(OptionalInt.empty(), backend.countTokens("hello"));
            assertEquals(OptionalInt.empty(), backend.countTokens("hello"));
            assertEquals(1, server.requests("/tokenize").size());
        }
    }

    @Test
    void aTokenizeRequestOfAnotherShapeMeansNoTokenizer() throws Exception {
        // vLLM has a /tokenize that wants "prompt" and refuses "content" alone
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096)
                .tokenizeAnswer(400, "{\"object\":\"error\",\"message\":\"Field required: prompt\"}");
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(OptionalInt.empty(), backend.countTokens("hello"));
        }
    }

    @Test
    void aServerWhosePropsAreNotLlamaCppsIsNeverAskedToTokenize() throws Exception {
        // Ollama, vLLM, LM Studio: a large prompt must not be posted to an endpoint that is not there
        try (FakeOpenAiServer server = FakeOpenAiServer.start().tokenizer(String::length);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(OptionalInt.empty(), backend.countTokens("x".repeat(1 << 20)));
            assertEquals(OptionalInt.empty(), backend.countTokens("again"));
            assertEquals(0, server.requests("/tokenize").size());
            assertEquals(1, server.requests("/props").size());
        }
    }

    @Test
    void theContextSizeProbeAndTheTokenizerShareOnePropsRequest() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(8192).tokenizer(String::length);
                OpenAiBackend backend = Fixture.backend(server)) {
            assertEquals(8192, backend.contextSize());
            assertEquals(OptionalInt.of(3), backend.countTokens("abc"));
            assertEquals(1, server.requests("/props").size());
        }
    }

    @Test
    void aTokenizerThatFailsIsAnInternalError() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096).tokenizeAnswer(500, "{\"error\":\"out of memory\"}");
                OpenAiBackend backend = Fixture.backend(server)) {
            ModelException e = assertThrows(ModelException.class, () -> backend.countTokens("hello"));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("Counting the prompt's tokens on the model server failed", e.getMessage());
            assertEquals(Optional.of("POST " + server.rootUrl() + "/tokenize: HTTP 500: {\"error\":\"out of memory\"}"),
                    e.detail());
            assertEquals(Optional.of("out of memory"), e.serverMessage());
        }
    }
}
