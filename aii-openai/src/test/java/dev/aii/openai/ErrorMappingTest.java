package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErrorMappingTest {

    private static final String CONTEXT_2048 =
            "Exceeds 2048-token context window\ntry a shorter input or use /new to reset context in interactive mode";

    /** The text received before the failure, and the failure. */
    private record Outcome(List<String> pieces, ModelException error) {
    }

    @Test
    void http429IsRateLimited() throws IOException {
        Outcome o = fail(Reply.rateLimited());
        assertEquals(ErrorCode.RATE_LIMITED, o.error.code());
        assertEquals(4, o.error.code().exitCode());
        assertEquals("Model busy, try again", o.error.getMessage());
        assertEquals(Optional.of("HTTP 429: {\"error\":{\"message\":\"Rate limit reached, retry later\","
                + "\"type\":\"rate_limit_error\"}}"), o.error.detail());
    }

    @Test
    void aContextRefusalIsContextExceededWithTheContextSize() throws IOException {
        Outcome o = fail(Reply.contextRefusal());
        assertEquals(ErrorCode.CONTEXT_EXCEEDED, o.error.code());
        assertEquals(CONTEXT_2048, o.error.getMessage());
        assertTrue(o.error.detail().orElseThrow().startsWith("HTTP 400: {\"error\":{\"code\":400,\"message\":\"the request"
                + " exceeds the available context size"), o.error.detail().orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"object\":\"error\",\"message\":\"This model's maximum context length is 4096 tokens. However, you requested"
                + " 5000 tokens.\",\"type\":\"BadRequestError\",\"code\":400}",
        "{\"error\":{\"message\":\"Input exceeds the model's context window. Shorten the conversation history.\","
                + "\"type\":\"context_length_exceeded\",\"param\":null,\"code\":null}}",
        "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"Please reduce the length of the messages.\"}}",
        "Too many tokens in the prompt",
        "prompt exceeds the context of the model"
    })
    void everyWayOfSayingTheContextIsFullIsContextExceeded(String body) throws IOException {
        assertEquals(ErrorCode.CONTEXT_EXCEEDED, fail(Reply.httpError(400, body)).error.code());
    }

    @Test
    void http413SpeakingOfTheContextIsContextExceeded() throws IOException {
        assertEquals(ErrorCode.CONTEXT_EXCEEDED, fail(Reply.httpError(413, "context window exceeded")).error.code());
    }

    @Test
    void anyOther400IsAServerErrorWithStatusAndBody() throws IOException {
        Outcome o = fail(Reply.httpError(400, "{\"error\":{\"message\":\"invalid tools\"}}"));
        assertEquals(ErrorCode.SERVER_ERROR, o.error.code());
        assertEquals(4, o.error.code().exitCode());
        assertEquals("The model server failed: bad request (HTTP 400)", o.error.getMessage());
        assertEquals(Optional.of("HTTP 400: {\"error\":{\"message\":\"invalid tools\"}}"), o.error.detail());
    }

    @Test
    void aServerErrorQuotesAtMost200CharactersOfTheBodyOnOneLine() throws IOException {
        String body = "{\"error\":\u001b[31m\r\n  \"" + "x".repeat(300) + "\"}";
        Outcome o = fail(Reply.httpError(502, body));
        assertEquals(ErrorCode.SERVER_ERROR, o.error.code());
        assertEquals("The model server failed: bad gateway (HTTP 502)", o.error.getMessage());
        assertEquals(Optional.of("HTTP 502: {\"error\": [31m \"" + "x".repeat(184) + "..."), o.error.detail());
    }


    @Test
    void aContentFilterBeforeAnyTextIsAGuardrailViolation() throws IOException {
        Outcome o = fail(Reply.stream().finish("content_filter").done());
        assertEquals(ErrorCode.GUARDRAIL_VIOLATION, o.error.code());
        assertEquals("Prompt blocked by safety filters", o.error.getMessage());
    }

    @Test
    void aStreamThatStallsIsAServerErrorAfterItsText() throws IOException {
        Outcome o = fail(Reply.stream().text("Partial ", "answer").stall());
        assertEquals(List.of("Partial ", "answer"), o.pieces);
        assertEquals(ErrorCode.SERVER_ERROR, o.error.code());
        assertEquals("The model server stopped responding in the middle of the answer", o.error.getMessage());
        assertEquals(Optional.of("no data for 2 s (AII_TIMEOUT)"), o.error.detail());
    }

    @Test
    void aServerThatSendsNothingAtAllStallsToo() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().delay("/v1/chat/completions", Duration.ofMinutes(5))) {
            Outcome o = fail(server, Reply.text("never"));
            assertEquals(List.of(), o.pieces);
            assertEquals(ErrorCode.SERVER_ERROR, o.error.code());
            assertEquals("The model server did not answer within 2 s", o.error.getMessage());
        }
    }

    @Test
    void aStreamThatEndsEarlyIsAnInternalErrorAfterItsText() throws IOException {
        Outcome o = fail(Reply.stream().text("Half of ", "it").drop());
        assertEquals(List.of("Half of ", "it"), o.pieces);
        assertEquals(ErrorCode.INTERNAL_ERROR, o.error.code());
        assertEquals("The connection to the model server closed in the middle of the answer", o.error.getMessage());
        assertEquals(Optional.of("the stream ended before [DONE]"), o.error.detail());
    }

    @Test
    void aConnectionCutMidStreamIsAnInternalErrorAfterItsText() throws IOException {
        Outcome o = fail(Reply.stream().text("Half of ", "it").abort());
        assertEquals(List.of("Half of ", "it"), o.pieces);
        assertEquals(ErrorCode.INTERNAL_ERROR, o.error.code());
        assertEquals("The connection to the model server closed in the middle of the answer", o.error.getMessage());
        assertTrue(o.error.detail().orElseThrow().startsWith("connection lost: the connection closed "),
                o.error.detail().toString());
    }

    @Test
    void anErrorEventInTheStreamIsAnInternalError() throws IOException {
        Outcome o = fail(Reply.stream().text("So").event("{\"error\":{\"message\":\"model crashed\",\"type\":"
                + "\"server_error\"}}").done());
        assertEquals(List.of("So"), o.pieces);
        assertEquals(ErrorCode.INTERNAL_ERROR, o.error.code());
        assertEquals("The model server reported an error in the middle of the answer", o.error.getMessage());
        assertEquals(Optional.of("stream error: {\"message\":\"model crashed\",\"type\":\"server_error\"}"),
                o.error.detail());
    }

    @Test
    void aRateLimitErrorEventIsRateLimited() throws IOException {
        Outcome o = fail(Reply.stream().event("{\"error\":{\"message\":\"Apple Intelligence is rate limited.\","
                + "\"type\":\"rate_limit_error\",\"param\":null,\"code\":null}}").done());
        assertEquals(ErrorCode.RATE_LIMITED, o.error.code());
        assertEquals("Model busy, try again", o.error.getMessage());
    }

    @Test
    void anErrorEventAboutTheContextIsContextExceeded() throws IOException {
        Outcome o = fail(Reply.stream().event("{\"error\":{\"message\":\"Input exceeds the model's context window.\","
                + "\"type\":\"context_length_exceeded\"}}").done());
        assertEquals(ErrorCode.CONTEXT_EXCEEDED, o.error.code());
    }

    @Test
    void anEventThatIsNotJsonIsAnInternalError() throws IOException {
        Outcome o = fail(Reply.stream().event("hello?").done());
        assertEquals("The model server sent a stream event that is not JSON", o.error.getMessage());
        assertEquals(Optional.of("event: hello?"), o.error.detail());
    }

    @Test
    void aServerGoneSinceTheAvailabilityCheckIsUnreachable() throws Exception {
        FakeOpenAiServer server = FakeOpenAiServer.start();
        try (OpenAiBackend backend = Fixture.backend(server, Map.of("AII_CONTEXT_SIZE", "2048"));
                Session session = backend.openSession(SessionOptions.plain())) {
            server.close();
            ModelException e = assertThrows(ModelException.class, () -> Fixture.respond(session, "hello"));
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals("Cannot reach the model server at " + server.baseUrl()
                    + "\nstart it, or point AII_BASE_URL at a running OpenAI-compatible server", e.getMessage());
        }
    }

    private static Outcome fail(Reply reply) throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            return fail(server, reply);
        }
    }

    private static Outcome fail(FakeOpenAiServer server, Reply reply) {
        server.enqueue(reply);
        Timeouts timeouts = Timeouts.defaults().withIdle(Fixture.TEST_IDLE);
        try (OpenAiBackend backend = Fixture.backend(server, Map.of("AII_CONTEXT_SIZE", "2048"), timeouts)) {
            Session session = backend.openSession(SessionOptions.plain());
            List<String> pieces = new ArrayList<>();
            ModelException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> assertThrows(ModelException.class, () -> session.respond("hello", pieces::add)));
            return new Outcome(pieces, e);
        } catch (ModelException e) {
            throw new AssertionError(e);
        }
    }
}
