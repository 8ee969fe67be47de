package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CancelTest {

    /** Never reached: a cancelled answer must end long before. */
    private static final Timeouts NO_IDLE = Timeouts.defaults().withIdle(Duration.ofMinutes(10));

    @Test
    void cancelFromAnotherThreadEndsAStreamingAnswerNormally() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.stream().text("first").stall());
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of(), NO_IDLE);
                Session session = backend.openSession(SessionOptions.plain())) {
            BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, pieces));
            // the piece arrives while the stream is still open: nothing waits for the end
            assertEquals("first", pieces.poll(20, TimeUnit.SECONDS));
            assertFalse(answer.isDone());
            session.cancel();
            assertNull(answer.get(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void cancelBeforeTheServerAnswersEndsTheAnswerNormally() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().delay("/v1/chat/completions", Duration.ofMinutes(5))
                .enqueue(Reply.text("late"));
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of(), NO_IDLE);
                Session session = backend.openSession(SessionOptions.plain())) {
            BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, pieces));
            while (server.chatRequests().isEmpty()) {
                Thread.sleep(10);
            }
            session.cancel();
            assertNull(answer.get(20, TimeUnit.SECONDS));
            assertTrue(pieces.isEmpty());
        }
    }

    @Test
    void cancelFromTheSinkStopsAtOnce() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().text("one", "two", "three").stall());
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of(), NO_IDLE);
                Session session = backend.openSession(SessionOptions.plain())) {
            BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> {
                try {
                    session.respond("count", piece -> {
                        pieces.add(piece);
                        session.cancel();
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertNull(answer.get(20, TimeUnit.SECONDS));
            assertEquals(List.of("one"), List.copyOf(pieces));
        }
    }

    @Test
    void cancelDuringAToolCallSkipsTheNextRequest() throws Exception {
        Session[] holder = new Session[1];
        ToolSpec tool = new ToolSpec("run_command", "d", "{\"type\":\"object\"}", args -> {
            holder[0].cancel();
            return "Terminated: interrupted by the user.";
        });
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.toolCall(Wire.OPENAI, "run_command", "{}"), Reply.text("unused"));
                OpenAiBackend backend = Fixture.backend(server);
                Session session = backend.openSession(Fixture.tools(tool))) {
            holder[0] = session;
            assertEquals(List.of(), Fixture.respond(session, "go"));
            assertEquals(1, server.chatRequests().size());
        }
    }

    @Test
    void aCancelledAnswerLeavesTheSessionReadyForTheNext() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()
                .enqueue(Reply.stream().text("first").stall(), Reply.text("second"));
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of(), NO_IDLE);
                Session session = backend.openSession(SessionOptions.plain())) {
            session.cancel(); // nothing in progress: no effect on what follows
            BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, pieces));
            assertEquals("first", pieces.poll(20, TimeUnit.SECONDS));
            session.cancel();
            session.cancel();
            answer.get(20, TimeUnit.SECONDS);
            assertEquals(List.of("second"), Fixture.respond(session, "again"));
            // the cancelled answer is not part of the conversation
            assertEquals(List.of("again"), server.lastChatRequest().contents("user"));
        }
    }

    @Test
    void closeCancelsAndRefusesFurtherPrompts() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start().enqueue(Reply.stream().text("first").stall());
                OpenAiBackend backend = Fixture.backend(server, java.util.Map.of(), NO_IDLE)) {
            Session session = backend.openSession(SessionOptions.plain());
            BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, pieces));
            assertEquals("first", pieces.poll(20, TimeUnit.SECONDS));
            session.close();
            assertNull(answer.get(20, TimeUnit.SECONDS));
            assertThrows(IllegalStateException.class, () -> session.respond("more", p -> { }));
        }
    }

    private static void respond(Session session, BlockingQueue<String> pieces) {
        try {
            session.respond("hello", pieces::add);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
