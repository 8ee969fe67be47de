package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class StreamingTest {

    @ParameterizedTest
    @EnumSource(Wire.class)
    void textPiecesReachTheSinkInOrderInEveryWireStyle(Wire wire) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.text(wire, "Hel", "lo, ", "wörld ✓\n"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("Hel", "lo, ", "wörld ✓\n"), Fixture.respond(session, "Say hello"));
        }
    }

    @Test
    void theRequestStreamsTheModelAndThePromptWithoutTools() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().models("m1").enqueue(Reply.text("ok"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            Fixture.respond(session, "What is 2+2?");
            RecordedRequest request = server.lastChatRequest();
            assertEquals("POST", request.method());
            assertEquals("{\"model\":\"m1\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"What is 2+2?\"}]}",
                    request.body());
            assertEquals(Optional.of("application/json"), request.header("Content-Type"));
            assertEquals(Optional.of("text/event-stream"), request.header("Accept"));
        }
    }

    @Test
    void theApiKeyGoesWithEveryRequest() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(8192).tokenizer(String::length)
                .enqueue(Reply.text("ok"));
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of("AII_API_KEY", "sk-local"));
                Session session = backend.openSession(SessionOptions.plain())) {
            backend.contextSize();
            backend.countTokens("abc");
            Fixture.respond(session, "Hi");
            assertEquals(List.of("/v1/models", "/props", "/tokenize", "/v1/chat/completions"),
                    server.requests().stream().map(RecordedRequest::path).toList());
            for (RecordedRequest r : server.requests()) {
                assertEquals(Optional.of("Bearer sk-local"), r.header("Authorization"), r.path());
            }
        }
    }

    @Test
    void instructionsGoFirstAsTheSystemMessage() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.text("Arr."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(new SessionOptions(Optional.of("Talk like a pirate."), List.of()))) {
            Fixture.respond(session, "Hi");
            assertEquals("[{\"role\":\"system\",\"content\":\"Talk like a pirate.\"},{\"role\":\"user\",\"content\":\"Hi\"}]",
                    server.lastChatRequest().json().get("messages").toString());
        }
    }

    @Test
    void aSessionWithAToolOffersItsSchema() throws Exception {
        ToolSpec tool = new ToolSpec("run_command", "Run one program.",
                "{\"type\":\"object\",\"properties\":{\"executable\":{\"type\":\"string\"}},\"required\":[\"executable\"]}",
                args -> "unused");
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.text("ok"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool))) {
            Fixture.respond(session, "Hi");
            assertEquals("[{\"type\":\"function\",\"function\":{\"name\":\"run_command\",\"description\":\"Run one program.\","
                    + "\"parameters\":{\"type\":\"object\",\"properties\":{\"executable\":{\"type\":\"string\"}},"
                    + "\"required\":[\"executable\"]}}}]", server.lastChatRequest().json().get("tools").toString());
        }
    }

    @Test
    void crlfLineEndsCommentsAndSplitDataLinesAreRead() throws Exception {
        String body = ": keep-alive\r\n\r\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"}}]}\r\n\r\n"
                + "event: message\r\nid: 7\r\ndata: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\" there\"}}],"
                + "\"usage\":null,\"x_extra\":[1,2]}\r\n\r\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n"
                + "data: [DONE]\r\n\r\n";
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.raw(body.substring(0, 50), body.substring(50)));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("Hi", " there"), Fixture.respond(session, "Hello"));
        }
    }

    @Test
    void aStreamEndingWithAFinishReasonButNoDoneIsComplete() throws Exception {
        String body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"fine\"},\"finish_reason\":\"stop\"}]}\n\n";
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.raw(body));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("fine"), Fixture.respond(session, "Hello"));
        }
    }

    @Test
    void aServerThatIgnoresStreamingStillAnswers() throws Exception {
        String completion = "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"whole answer\"},\"finish_reason\":\"stop\"}]}";
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.json(completion));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("whole answer"), Fixture.respond(session, "Hello"));
        }
    }

    @Test
    void textAfterItIsCutOffByLengthIsAnAnswer() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().text("The answer is").finish("length").done());
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("The answer is"), Fixture.respond(session, "Hello"));
        }
    }

    @Test
    void aRefusalIsShownAsText() throws Exception {
        String body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"refusal\":\"I can't help with that.\"}}]}\n\n"
                + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\ndata: [DONE]\n\n";
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.raw(body));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(List.of("I can't help with that."), Fixture.respond(session, "Hello"));
        }
    }
}
