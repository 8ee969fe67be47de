package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** One-shot mode through the real launcher: the prompt the server gets, what reaches stdout, and model info. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OneShotE2E extends ServerFixture {


    @Test
    void theAnswerIsStreamedToStdoutAndEndsWithOneLineFeed() throws Exception {
        server.enqueue(Reply.text("The capital", " of France", " is Paris."));
        assertEquals(new Result(0, "The capital of France is Paris.\n", ""), aii.run("What is the capital of France?"));
        RecordedRequest chat = server.lastChatRequest();
        assertEquals("{\"role\":\"user\",\"content\":\"What is the capital of France?\"}",
                String.join(",", chat.messages().stream().map(Object::toString).toList()));
        assertEquals("fake-model", chat.json().path("model").asText());
        assertEquals(true, chat.json().path("stream").asBoolean());
        assertEquals(1, server.chatRequests().size());
    }

    @Test
    void theApiKeyGoesWithEveryRequest() throws Exception {
        server.enqueue(Reply.text("Hi."));
        assertEquals(new Result(0, "Hi.\n", ""), aii.env("AII_API_KEY", "sk-local-1").run("hello"));
        List<RecordedRequest> requests = server.requests();
        assertEquals(List.of("/v1/models", "/v1/chat/completions"),
                requests.stream().map(RecordedRequest::path).filter(p -> p.startsWith("/v1/")).toList());
        for (RecordedRequest request : requests) {
            assertEquals("Bearer sk-local-1", request.header("Authorization").orElse(""), request.path());
        }
    }

    @Test
    void textIsOnStdoutBeforeTheAnswerEnds() throws Exception {
        server.enqueue(Reply.stream().text("First line\n").stall());
        Running running = aii.start("Count slowly");
        running.awaitStdout("First line\n");
        running.interrupt();
        assertEquals(new Result(130, "First line\n", ""), running.awaitExit());
    }

    @Test
    void pipedStdinIsTheContentThePromptIsAbout() throws Exception {
        server.enqueue(Reply.text("Two lines."));
        Result r = aii.stdin("line one\nline two\n").run("Summarize this");
        assertEquals(new Result(0, "Two lines.\n", ""), r);
        assertEquals("Summarize this\n\n--- CONTENT ---\nline one\nline two\n\n--- END CONTENT ---",
                server.lastChatRequest().lastUserMessage());
    }

    @Test
    void pipedStdinAloneIsThePrompt() throws Exception {
        server.enqueue(Reply.text("Hello."));
        assertEquals(new Result(0, "Hello.\n", ""), aii.stdin("say hello").run());
        assertEquals("say hello", server.lastChatRequest().lastUserMessage());
    }

    @Test
    void aFileIsTheContentThePromptIsAbout() throws Exception {
        Files.writeString(aii.directory().resolve("notes.txt"), "caf\u00e9 at 10\n");
        server.enqueue(Reply.text("A meeting."));
        assertEquals(new Result(0, "A meeting.\n", ""), aii.run("-f", "notes.txt", "What is this?"));
        assertEquals("What is this?\n\n--- CONTENT ---\ncaf\u00e9 at 10\n\n--- END CONTENT ---",
                server.lastChatRequest().lastUserMessage());
    }

    @Test
    void aFileAndPipedStdinConflict() throws Exception {
        Files.writeString(aii.directory().resolve("notes.txt"), "x");
        Result r = aii.stdin("y").run("-f", "notes.txt", "What is this?");
        assertEquals(new Result(2, "", "aii: Cannot use both --file and piped stdin. Use one or the other\n"), r);
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void aMissingFileIsNamedAsGiven() throws Exception {
        assertEquals(new Result(2, "", "aii: Cannot read file: missing.txt\n"), aii.run("--file=missing.txt", "hi"));
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void aFileThatNeverEndsCannotBeRead() throws Exception {
        // A small heap, so that running out of it takes no time.
        Result r = aii.env("AII_JAVA_OPTS", "-Xmx64m").run("-f", "/dev/zero", "What is this?");
        assertEquals(new Result(2, "", "aii: Cannot read file: /dev/zero\n"), r);
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void emptyStdinAndNoPromptEndQuietly() throws Exception {
        assertEquals(new Result(0, "", ""), aii.stdin("").run());
        assertEquals(List.of(), server.chatRequests());
    }

    @Test
    void modelInfoNamesTheModelTheServerAndTheDiscoveredContext() throws Exception {
        server.props(8192);
        assertEquals(new Result(0, "Context window: 8192 tokens\nModel variant: fake-model via " + server.baseUrl()
                + "\nSupported languages: unknown\n", ""), aii.run("-m"));
    }
}
