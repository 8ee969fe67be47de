package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FakeOpenAiServerTest {

    private static final String CHAT = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @Test
    void openAiStyleSendsARoleChunkThenFragmentedArguments() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.stream(Wire.OPENAI).text("Hi").toolCall("run", "{\"a\":12}").done());
            assertEquals(chunk("{\"role\":\"assistant\",\"content\":\"\"}", null, "")
                    + chunk("{\"content\":\"Hi\"}", null, "")
                    + chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"fake_call_1\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"run\",\"arguments\":\"\"}}]}", null, "")
                    + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]}", null, "")
                    + chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\":12}\"}}]}", null, "")
                    + chunk("{}", "tool_calls", "")
                    + "data: [DONE]\n\n", post(server, "/v1/chat/completions", CHAT).body);
        }
    }

    @Test
    void ollamaStyleRepeatsTheRoleAndSendsEveryCallWholeAtIndexZero() throws IOException {
        String fp = ",\"system_fingerprint\":\"fp_ollama\"";
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCalls(Wire.OLLAMA, Reply.call("run", "{}"), Reply.call("run", "[]").withId("x")));
            assertEquals(chunk("{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"fake_call_1\","
                            + "\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"run\",\"arguments\":\"{}\"}}]}",
                            null, fp)
                    + chunk("{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"x\",\"index\":0,"
                            + "\"type\":\"function\",\"function\":{\"name\":\"run\",\"arguments\":\"[]\"}}]}", null, fp)
                    + chunk("{\"role\":\"assistant\",\"content\":\"\"}", "tool_calls", fp)
                    + "data: [DONE]\n\n", post(server, "/v1/chat/completions", CHAT).body);
        }
    }

    @Test
    void apfelStyleSendsAllCallsInOneChunkThenASeparateFinish() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCalls(Wire.APFEL, Reply.call("run", "{}").withoutId(), Reply.call("run", "[]")));
            assertEquals(apfel("{\"role\":\"assistant\"}", null)
                    + apfel("{\"tool_calls\":[{\"index\":0,\"type\":\"function\",\"function\":{\"name\":\"run\","
                            + "\"arguments\":\"{}\"}},{\"index\":1,\"id\":\"fake_call_1\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"run\",\"arguments\":\"[]\"}}]}", null)
                    + apfel("{}", "tool_calls")
                    + "data: [DONE]\n\n", post(server, "/v1/chat/completions", CHAT).body);
        }
    }

    @Test
    void rawRepliesAndErrorsAreSentAsGiven() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.raw(": c\r\n", "data: x\r\n\r\n"), Reply.rateLimited(), Reply.json("{\"a\":1}"));
            assertEquals(": c\r\ndata: x\r\n\r\n", post(server, "/v1/chat/completions", CHAT).body);
            Answer limited = post(server, "/v1/chat/completions", CHAT);
            assertEquals(429, limited.status);
            assertEquals("{\"a\":1}", post(server, "/v1/chat/completions", CHAT).body);
            Answer none = post(server, "/v1/chat/completions", CHAT);
            assertEquals(500, none.status);
            assertEquals("{\"error\":{\"message\":\"FakeOpenAiServer: no scripted reply left\",\"type\":\"server_error\"}}",
                    none.body);
        }
    }

    @Test
    void everyRequestIsRecorded() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("ok"));
            get(server, "/v1/models");
            post(server, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":\"S\"},"
                    + "{\"role\":\"user\",\"content\":\"U\"},{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"T\"}],"
                    + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"run_command\"}}]}");
            assertEquals(List.of("/v1/models", "/v1/chat/completions"),
                    server.requests().stream().map(RecordedRequest::path).toList());
            RecordedRequest chat = server.lastChatRequest();
            assertEquals(Optional.of("S"), chat.systemMessage());
            assertEquals("U", chat.lastUserMessage());
            assertEquals(List.of("T"), chat.toolResults());
            assertEquals(List.of("c"), chat.toolCallIds());
            assertEquals(List.of("run_command"), chat.toolNames());
            assertEquals(Optional.of("application/json"), chat.header("content-type"));
        }
    }

    @Test
    void aRequestWithoutStreamGetsTheReplyAsOneCompletion() throws IOException {
        String whole = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("Hel", "lo"),
                    Reply.toolCalls(Wire.OPENAI, Reply.call("run_command", "{\"executable\":\"ls\"}"),
                            Reply.call("run_command", "{}").withId("mine")),
                    Reply.stream().text("cut").finish("length").done(),
                    Reply.raw("data: x\n\n"));
            assertEquals("{\"id\":\"chatcmpl-fake-1\",\"object\":\"chat.completion\",\"created\":1767225600,"
                    + "\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0,"
                    + "\"total_tokens\":0}}", post(server, "/v1/chat/completions", whole).body);
            assertEquals("{\"id\":\"chatcmpl-fake-2\",\"object\":\"chat.completion\",\"created\":1767225600,"
                    + "\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
                    + "\"tool_calls\":[{\"id\":\"fake_call_1\",\"type\":\"function\",\"function\":{\"name\":\"run_command\","
                    + "\"arguments\":\"{\\\"executable\\\":\\\"ls\\\"}\"}},{\"id\":\"mine\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"run_command\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}],"
                    + "\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":0,\"total_tokens\":0}}",
                    post(server, "/v1/chat/completions", whole.replace("}]}", "}],\"stream\":false}")).body);
            assertEquals("length", new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(post(server, "/v1/chat/completions", whole).body)
                    .path("choices").path(0).path("finish_reason").asText());
            Answer streamOnly = post(server, "/v1/chat/completions", whole);
            assertEquals(500, streamOnly.status);
            assertEquals("{\"error\":{\"message\":\"FakeOpenAiServer: this scripted reply can only be streamed\","
                    + "\"type\":\"server_error\"}}", streamOnly.body);
        }
    }

    @Test
    void nativeEndpointsAnswerOnlyWhenConfigured() throws IOException {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            assertEquals(404, get(server, "/props").status);
            assertEquals(404, post(server, "/tokenize", "{\"content\":\"a b\"}").status);
            assertEquals(404, post(server, "/api/show", "{\"model\":\"m\"}").status);
            server.props(8192).tokenizer(s -> s.split(" ").length).ollamaShow("llama", 131072);
            assertEquals("{\"default_generation_settings\":{\"n_ctx\":8192,\"model\":\"fake.gguf\"},\"total_slots\":1,"
                    + "\"build_info\":\"fake\"}", get(server, "/props").body);
            assertEquals("{\"tokens\":[1000,1001]}", post(server, "/tokenize", "{\"content\":\"a b\"}").body);
            assertEquals(131072, new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(post(server, "/api/show", "{\"model\":\"m\"}").body)
                    .path("model_info").path("llama.context_length").asInt());
            assertEquals("{\"object\":\"list\",\"data\":[{\"id\":\"fake-model\",\"object\":\"model\","
                    + "\"created\":1767225600,\"owned_by\":\"fake\"}]}", get(server, "/v1/models").body);
        }
    }

    @Test
    void aChatRequestIsNeededBeforeTheLastOneIsAskedFor() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            assertThrows(AssertionError.class, server::lastChatRequest);
            assertThrows(AssertionError.class, () -> server.awaitChatRequests(1, Duration.ofMillis(50)));
            server.enqueue(Reply.text("ok"));
            Thread client = Thread.ofVirtual().start(() -> {
                try {
                    post(server, "/v1/chat/completions", CHAT);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertEquals(1, server.awaitChatRequests(1, Duration.ofSeconds(20)).size());
            client.join(Duration.ofSeconds(20));
        }
    }

    @Test
    void anUnreachableBaseUrlRefusesConnections() throws IOException {
        String base = FakeOpenAiServer.unreachableBaseUrl();
        HttpURLConnection c = (HttpURLConnection) URI.create(base + "/models").toURL().openConnection();
        assertThrows(java.net.ConnectException.class, c::getResponseCode);
    }

    private record Answer(int status, String body) {
    }

    private static String chunk(String delta, String finish, String extra) {
        return "data: {\"id\":\"chatcmpl-fake-1\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,\"model\":\"m\""
                + extra + ",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + (finish == null ? "null" : "\"" + finish + "\"") + "}]}\n\n";
    }

    private static String apfel(String delta, String finish) {
        return "data: {\"id\":\"chatcmpl-fake-1\",\"object\":\"chat.completion.chunk\",\"created\":1767225600,\"model\":\"m\""
                + ",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":"
                + (finish == null ? "null" : "\"" + finish + "\"") + "}]}\n\n";
    }

    private static Answer get(FakeOpenAiServer server, String path) throws IOException {
        return exchange(server, "GET", path, null);
    }

    private static Answer post(FakeOpenAiServer server, String path, String body) throws IOException {
        return exchange(server, "POST", path, body);
    }

    private static Answer exchange(FakeOpenAiServer server, String method, String path, String body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(server.rootUrl() + path).toURL().openConnection();
        c.setRequestMethod(method);
        if (body != null) {
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            try (OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            }
        }
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            return new Answer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            c.disconnect();
        }
    }
}
