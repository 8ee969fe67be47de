package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.TextSink;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Answers the server cut off, and what goes back to it afterwards: a call
 * whose arguments were cut off never runs, the history carries only JSON
 * objects as arguments (llama.cpp parses every past call and answers HTTP 500
 * to one that is not JSON), and a full context is {@code context_exceeded}.
 */
class CutOffAndHistoryTest {

    /** A run_command stand-in that records what it was given. */
    private static final class Recorder {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());

        ToolSpec spec() {
            return new ToolSpec("run_command", "Run one program.", "{\"type\":\"object\"}", args -> {
                calls.add(args);
                return Json.parseWhole(args).filter(JsonNode::isObject).isPresent() ? "exit 0\n" : "Error: invalid executable";
            });
        }
    }

    /** A sink that remembers its pieces and whether it heard of a cut. */
    private static final class Sink implements TextSink {
        final List<String> pieces = new ArrayList<>();
        boolean cutOff;

        @Override
        public void accept(String piece) {
            pieces.add(piece);
        }

        @Override
        public void cutOff() {
            cutOff = true;
        }
    }

    private static String call(String argumentsJson) {
        return "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"run_command\",\"arguments\":" + argumentsJson + "}}]}}]}";
    }

    private static String finish(String reason, int prompt, int predicted) {
        return "{\"choices\":[{\"finish_reason\":\"" + reason + "\",\"index\":0,\"delta\":{}}],"
                + "\"timings\":{\"cache_n\":0,\"prompt_n\":" + prompt + ",\"predicted_n\":" + predicted + "}}";
    }

    private static String quoted(String s) {
        return Json.write(Json.object().textNode(s));
    }

    private static JsonNode historyCall(RecordedRequest request) {
        for (JsonNode m : request.messages()) {
            if (m.has("tool_calls")) {
                return m.get("tool_calls").get(0);
            }
        }
        throw new AssertionError("no tool call in " + request.body());
    }

    @Test
    void aToolCallCutOffByTheOutputLimitIsNotRunAndTheAnswerEnds() throws Exception {
        // llama-server -n 2: <tool_call> and the fragment "{", then finish_reason "length"
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096)
                .enqueue(Reply.stream().event(call(quoted("{"))).event(finish("length", 1764, 2)).raw("data: [DONE]\n\n").drop(),
                        Reply.text("Next answer."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Sink sink = new Sink();
            session.respond("What OS?", sink);
            assertTrue(sink.cutOff);
            assertEquals(List.of(), tool.calls);
            assertEquals(1, server.chatRequests().size(), "an answer cut off is over: nothing is asked again");

            session.respond("And now?", new Sink());
            RecordedRequest next = server.lastChatRequest();
            assertEquals("{}", historyCall(next).path("function").path("arguments").asText());
            assertEquals(List.of(ChatSession.CUT_OFF_RESULT), next.toolResults());
        }
    }

    @Test
    void anAnswerCutOffByTheOutputLimitKeepsItsText() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096)
                .enqueue(Reply.stream().text("The first words").finish("length").done());
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(new Recorder().spec()))) {
            Sink sink = new Sink();
            session.respond("Talk", sink);
            assertEquals(List.of("The first words"), sink.pieces);
            assertTrue(sink.cutOff);
        }
    }

    @Test
    void lengthBeforeAnyTextWithoutAFullContextIsACutNotAnError() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096).enqueue(Reply.lengthBeforeText());
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(dev.aii.model.SessionOptions.plain())) {
            Sink sink = new Sink();
            session.respond("Talk", sink);
            assertTrue(sink.cutOff);
        }
    }

    @Test
    void lengthWhenTheContextIsFullIsContextExceededAfterTheText() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(256)
                .enqueue(Reply.stream().text("Some ").event(call(quoted("{\"exec"))).event(finish("length", 250, 5))
                        .raw("data: [DONE]\n\n").drop());
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(new Recorder().spec()))) {
            Sink sink = new Sink();
            ModelException e = assertThrows(ModelException.class, () -> session.respond("Go on", sink));
            assertEquals(ErrorCode.CONTEXT_EXCEEDED, e.code());
            assertEquals("Exceeds 256-token context window\ntry a shorter input or use /new to reset context in interactive mode",
                    e.getMessage());
            assertEquals(List.of("Some "), sink.pieces);
            assertFalse(sink.cutOff);
        }
    }

    @Test
    void a500AfterAnAnswerThatFilledTheContextIsContextExceeded() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(300)
                .enqueue(Reply.stream().event(call(quoted("{\"executable\":\"uname\",\"arguments\":[\"-s\"]}")))
                                .event(finish("tool_calls", 280, 19)).raw("data: [DONE]\n\n").drop(),
                        Reply.httpError(500, "{\"error\":{\"code\":500,\"message\":\"Failed to parse tool call arguments"
                                + " as JSON\",\"type\":\"server_error\"}}"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(new Recorder().spec()))) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("Loop", new Sink()));
            assertEquals(ErrorCode.CONTEXT_EXCEEDED, e.code());
        }
    }

    @Test
    void a500WithRoomLeftIsAServerErrorThatSaysWhatTheServerSaid() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().props(4096)
                .enqueue(Reply.httpError(500, "{\"error\":{\"code\":500,\"message\":\"tools param requires --jinja flag\","
                        + "\"type\":\"server_error\"}}"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(new Recorder().spec()))) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("Hi", new Sink()));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals("The model server failed: internal server error (HTTP 500)", e.getMessage());
            assertEquals(Optional.of("tools param requires --jinja flag"), e.serverMessage());
        }
    }

    @Test
    void argumentsThatAreNotAJsonObjectGoBackAsAnEmptyObject() throws Exception {
        for (String bad : List.of("{", "not json", "[\"ls\"]", "\"ls\"", "{\"executable\":\"ls\"} trailing", "")) {
            Recorder tool = new Recorder();
            try (FakeOpenAiServer server = FakeOpenAiServer.start()
                    .enqueue(Reply.stream().event(call(quoted(bad))).finish("tool_calls").done(), Reply.text("Done."));
                    OpenAiBackend backend = Fixture.backend(server);
                    Session session = backend.openSession(Fixture.tools(tool.spec()))) {
                Sink sink = new Sink();
                session.respond("Run it", sink);
                assertEquals(List.of("Done."), sink.pieces, bad);
                assertEquals(List.of(bad), tool.calls, "the tool judges the model's own text: " + bad);
                RecordedRequest second = server.lastChatRequest();
                assertEquals("{}", historyCall(second).path("function").path("arguments").asText(), bad);
                assertEquals(List.of("Error: invalid executable"), second.toolResults(), bad);
            }
        }
    }

    @Test
    void validArgumentsGoBackAsTheModelWroteThem() throws Exception {
        String args = "{ \"executable\" : \"df\",\"arguments\":[\"-h\"] }";
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().event(call(quoted(args))).finish("tool_calls").done(), Reply.text("Done."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            session.respond("Run it", new Sink());
            assertEquals(List.of(args), tool.calls);
            assertEquals(args, historyCall(server.lastChatRequest()).path("function").path("arguments").asText());
        }
    }

    @Test
    void argumentsNestedDeeperThanTheParserReadsGiveTheToolsErrorAndTheAnswerGoesOn() throws Exception {
        for (int depth : List.of(1_001, 100_000)) {
            String deep = "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
            for (String arguments : List.of(deep, quoted(deep))) {     // as an object, and as JSON text in a string
                Recorder tool = new Recorder();
                try (FakeOpenAiServer server = FakeOpenAiServer.start()
                        .enqueue(Reply.stream().event(call(arguments)).finish("tool_calls").done(), Reply.text("Done."));
                        OpenAiBackend backend = Fixture.backend(server);
                        Session session = backend.openSession(Fixture.tools(tool.spec()))) {
                    Sink sink = new Sink();
                    session.respond("Run it", sink);
                    assertEquals(List.of("Done."), sink.pieces);
                    assertEquals(1, tool.calls.size());
                    assertTrue(tool.calls.getFirst().startsWith("{\"a\":{\"a\":"), "the tool gets the text as sent");
                    RecordedRequest second = server.lastChatRequest();
                    assertEquals("{}", historyCall(second).path("function").path("arguments").asText());
                    assertEquals(List.of("Error: invalid executable"), second.toolResults());
                }
            }
        }
    }

    @Test
    void anUnpairedSurrogateBecomesTheReplacementCharacterForTheToolAndTheHistory() throws Exception {
        String args = "{\"executable\":\"echo\",\"arguments\":[\"a\\ud800b\",\"\\udc00\",\"\\ud83d\\ude00\"]}";
        String repaired = "{\"executable\":\"echo\",\"arguments\":[\"a\uFFFDb\",\"\uFFFD\",\"\uD83D\uDE00\"]}";
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().event(call(quoted(args))).finish("tool_calls").done(), Reply.text("Done."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            session.respond("Echo", new Sink());
            assertEquals(List.of(repaired), tool.calls);
            assertEquals(repaired, historyCall(server.lastChatRequest()).path("function").path("arguments").asText());
        }
    }

    @Test
    void anUnpairedSurrogateInTheTextIsShownAsTheReplacementCharacter() throws Exception {
        String chunk = "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%s\"}}]}";
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().event(chunk.formatted("smile \\ud83d")).event(chunk.formatted("\\ude00 lone \\udc00"))
                        .event(chunk.formatted(" end \\ud800")).finish("stop").done());
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(dev.aii.model.SessionOptions.plain())) {
            Sink sink = new Sink();
            session.respond("Hi", sink);
            assertEquals("smile \uD83D\uDE00 lone \uFFFD end \uFFFD", String.join("", sink.pieces));
            sink.pieces.forEach(p -> assertFalse(Surrogates.hasUnpaired(p), p));
        }
    }
}
