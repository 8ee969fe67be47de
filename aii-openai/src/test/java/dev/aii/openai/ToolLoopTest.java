package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ToolLoopTest {

    private static final String DF = "{\"executable\":\"df\",\"arguments\":[\"-h\"]}";
    private static final String LS = "{\"executable\":\"ls\",\"arguments\":[\"-l\",\"/tmp\"]}";

    /** A run_command stand-in that records its arguments and answers with a fixed text. */
    private static final class Recorder {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());

        ToolSpec spec() {
            return new ToolSpec("run_command", "Run one program.", "{\"type\":\"object\"}", args -> {
                calls.add(args);
                return "exit 0\nresult " + calls.size() + "\n";
            });
        }
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void aToolCallIsRunAndItsResultSentBackInEveryWireStyle(Wire wire) throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCalls(wire, Reply.call("run_command", DF).withId("call_df")),
                        Reply.text(wire, "Disk is ", "fine."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            assertEquals(List.of("Disk is ", "fine."), Fixture.respond(session, "How full is my disk?"));
            assertEquals(List.of(DF), tool.calls);
            assertEquals(2, server.chatRequests().size());
            RecordedRequest second = server.lastChatRequest();
            assertEquals("[{\"role\":\"user\",\"content\":\"How full is my disk?\"},"
                    + "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"call_df\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"run_command\",\"arguments\":" + quote(DF) + "}}]},"
                    + "{\"role\":\"tool\",\"tool_call_id\":\"call_df\",\"content\":\"exit 0\\nresult 1\\n\"}]",
                    second.json().get("messages").toString());
            assertEquals(List.of("run_command"), second.toolNames());
        }
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void severalCallsInOneAnswerRunInOrderInEveryWireStyle(Wire wire) throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCalls(wire, Reply.call("run_command", DF), Reply.call("run_command", LS)),
                        Reply.text(wire, "Done."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Fixture.respond(session, "Check things");
            assertEquals(List.of(DF, LS), tool.calls);
            RecordedRequest second = server.lastChatRequest();
            assertEquals(List.of("exit 0\nresult 1\n", "exit 0\nresult 2\n"), second.toolResults());
            assertEquals(List.of("fake_call_1", "fake_call_2"), second.toolCallIds());
            assertEquals(List.of("fake_call_1", "fake_call_2"),
                    second.messages().get(1).get("tool_calls").findValuesAsText("id"));
        }
    }

    @Test
    void aCallWithoutAnIdGetsOne() throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCalls(Wire.OLLAMA, Reply.call("run_command", DF).withoutId()), Reply.text("ok"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Fixture.respond(session, "disk?");
            assertEquals(List.of("call_1"), server.lastChatRequest().toolCallIds());
            assertEquals("call_1", server.lastChatRequest().messages().get(1).path("tool_calls").get(0).path("id").asText());
        }
    }

    @ParameterizedTest
    @EnumSource(Wire.class)
    void twoCallsSharingOneIdAreAnsweredUnderIdsOfTheirOwn(Wire wire) throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCalls(wire, Reply.call("run_command", DF).withId("call_0"),
                        Reply.call("run_command", LS).withId("call_0")), Reply.text(wire, "Done."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Fixture.respond(session, "Check things");
            assertEquals(List.of(DF, LS), tool.calls);
            RecordedRequest second = server.lastChatRequest();
            assertEquals(List.of("call_0", "call_1"), second.messages().get(1).get("tool_calls").findValuesAsText("id"));
            assertEquals(List.of("call_0", "call_1"), second.toolCallIds());
            assertEquals(List.of("exit 0\nresult 1\n", "exit 0\nresult 2\n"), second.toolResults());
        }
    }

    @Test
    void argumentsThatAreNotJsonReachTheHandlerAsTheyAre() throws Exception {
        List<String> seen = new ArrayList<>();
        ToolSpec strict = new ToolSpec("run_command", "d", "{\"type\":\"object\"}", args -> {
            seen.add(args);
            return "Error: the arguments are not valid JSON";
        });
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCall(Wire.OPENAI, "run_command", "{\"executable\": df -h"), Reply.text("Sorry."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(strict))) {
            Fixture.respond(session, "disk?");
            assertEquals(List.of("{\"executable\": df -h"), seen);
            assertEquals(List.of("Error: the arguments are not valid JSON"), server.lastChatRequest().toolResults());
        }
    }

    @Test
    void textBeforeACallIsShownAndKeptWithTheCall() throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().text("Let me look.").toolCall("run_command", DF).done(), Reply.text(" Fine."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            assertEquals(List.of("Let me look.", " Fine."), Fixture.respond(session, "disk?"));
            assertEquals("Let me look.", server.lastChatRequest().messages().get(1).path("content").asText());
        }
    }

    @Test
    void aCallOfAnUnknownToolIsAnsweredWithAnError() throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCall(Wire.APFEL, "get_weather", "{\"city\":\"Paris\"}"), Reply.text("No weather."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Fixture.respond(session, "weather?");
            assertEquals(List.of(), tool.calls);
            assertEquals(List.of("Error: there is no tool named get_weather"), server.lastChatRequest().toolResults());
        }
    }

    @Test
    void theConversationContinuesAcrossAnswers() throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCalls(Wire.OPENAI, Reply.call("run_command", DF).withId("c1")),
                        Reply.text("Half full."), Reply.text("You asked about the disk."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            Fixture.respond(session, "How full is my disk?");
            Fixture.respond(session, "What did I ask?");
            assertEquals("[{\"role\":\"user\",\"content\":\"How full is my disk?\"},"
                    + "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"run_command\",\"arguments\":" + quote(DF) + "}}]},"
                    + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"exit 0\\nresult 1\\n\"},"
                    + "{\"role\":\"assistant\",\"content\":\"Half full.\"},"
                    + "{\"role\":\"user\",\"content\":\"What did I ask?\"}]",
                    server.lastChatRequest().json().get("messages").toString());
        }
    }

    @Test
    void aFailedAnswerLeavesTheConversationAsItWas() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.text("One."), Reply.httpError(500, "{\"error\":\"boom\"}"), Reply.text("Three."));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools())) {
            Fixture.respond(session, "first");
            assertThrows(ModelException.class, () -> Fixture.respond(session, "second"));
            Fixture.respond(session, "third");
            assertEquals(List.of("first", "third"), server.lastChatRequest().contents("user"));
            assertEquals(List.of("One."), server.lastChatRequest().contents("assistant"));
        }
    }

    @Test
    void sessionsHaveTheirOwnHistories() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.text("A"), Reply.text("B"));
                OpenAiBackend backend = Fixture.backend(server);
                Session one = backend.openSession(Fixture.tools());
                Session two = backend.openSession(Fixture.tools())) {
            Fixture.respond(one, "to one");
            Fixture.respond(two, "to two");
            assertEquals(List.of("to two"), server.lastChatRequest().contents("user"));
        }
    }

    @Test
    void aModelThatNeverStopsCallingToolsIsStopped() throws Exception {
        Recorder tool = new Recorder();
        try (FakeOpenAiServer server = FakeOpenAiServer.start(); OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool.spec()))) {
            for (int i = 0; i < ChatSession.MAX_ROUNDS; i++) {
                server.enqueue(Reply.toolCall(Wire.OLLAMA, "run_command", DF));
            }
            ModelException e = assertThrows(ModelException.class, () -> Fixture.respond(session, "loop"));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The model kept calling tools without giving an answer", e.getMessage());
            assertEquals(Optional.of("more than 64 requests in one answer"), e.detail());
            assertEquals(ChatSession.MAX_ROUNDS, tool.calls.size());
        }
    }

    private static String quote(String json) {
        return "\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
