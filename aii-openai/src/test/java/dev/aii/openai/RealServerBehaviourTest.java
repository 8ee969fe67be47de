package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What real servers send besides a clean stream, byte for byte: llama.cpp's
 * error fields and error events, error statuses whose body never comes, a
 * model still loading, rate limits with {@code Retry-After}, redirects, and
 * silence.
 */
class RealServerBehaviourTest {

    private static final Timeouts TEST = Timeouts.defaults().withIdle(Duration.ofSeconds(30))
            .withPatience(Duration.ofSeconds(3));

    static String sse(String... events) {
        StringBuilder b = new StringBuilder(RawServer.head(200, "Content-Type: text/event-stream", "Connection: close"));
        for (String e : events) {
            b.append(e).append("\n\n");
        }
        return b.toString();
    }

    static String text(String piece) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece + "\"}}]}";
    }

    static final String STOP = "data: {\"choices\":[{\"finish_reason\":\"stop\",\"index\":0,\"delta\":{}}]}";
    static final String DONE = "data: [DONE]";

    /** What a sink saw: the pieces, the waits, whether it was cut off. */
    static class Seen implements TextSink {
        final List<String> pieces = new CopyOnWriteArrayList<>();
        final List<String> waits = new CopyOnWriteArrayList<>();
        volatile boolean cutOff;

        @Override
        public void accept(String piece) {
            pieces.add(piece);
        }

        @Override
        public void cutOff() {
            cutOff = true;
        }

        @Override
        public void waiting(String reason, Duration wait) {
            waits.add(reason + " / " + wait.toSeconds() + " s");
        }
    }

    private static ModelException fails(RawServer server, Timeouts timeouts, Seen seen) throws Exception {
        try (OpenAiBackend backend = server.backend(timeouts); Session session = backend.openSession(SessionOptions.plain())) {
            return assertThrows(ModelException.class, () -> session.respond("hi", seen));
        }
    }

    private static void answers(RawServer server, Timeouts timeouts, Seen seen) throws Exception {
        try (OpenAiBackend backend = server.backend(timeouts); Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("hi", seen);
        }
    }

    @Test
    void anErrorFieldAfterTextEndsTheAnswerAsAnErrorKeepingTheText() throws Exception {
        // llama.cpp before it sent errors as data: an "error:" line, then [DONE]
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("Half an "), text("answer"),
                    "error: {\"code\":500,\"message\":\"failed to decode the batch\",\"type\":\"server_error\"}", DONE)));
            Seen seen = new Seen();
            ModelException e = fails(server, TEST, seen);
            assertEquals(List.of("Half an ", "answer"), seen.pieces);
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The model server reported an error in the middle of the answer", e.getMessage());
            assertEquals(java.util.Optional.of("failed to decode the batch"), e.serverMessage());
        }
    }

    @Test
    void anErrorFieldSpeakingOfTheContextIsContextExceeded() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("Some text"),
                    "error: {\"code\":500,\"message\":\"Context size has been exceeded.\",\"type\":\"server_error\"}",
                    DONE)));
            Seen seen = new Seen();
            ModelException e = fails(server, TEST, seen);
            assertEquals(List.of("Some text"), seen.pieces);
            assertEquals(ErrorCode.CONTEXT_EXCEEDED, e.code());
        }
    }

    @Test
    void aDataErrorEventAfterTextEndsTheAnswerWithItsCode() throws Exception {
        // llama.cpp 80fb11a: data: {"error":{...}} and the stream ends, no [DONE]
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("Some text before "),
                    "data: {\"error\":{\"code\":500,\"message\":\"got exception: Unexpected empty grammar stack\","
                            + "\"type\":\"server_error\"}}")),
                    new RawServer.Script().text(sse(text("x"),
                            "data: {\"error\":{\"code\":500,\"message\":\"context shift is disabled\",\"type\":\"server_error\"}}")));
            Seen seen = new Seen();
            ModelException e = fails(server, TEST, seen);
            assertEquals(List.of("Some text before "), seen.pieces);
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals(java.util.Optional.of("got exception: Unexpected empty grammar stack"), e.serverMessage());
            assertEquals(ErrorCode.CONTEXT_EXCEEDED, fails(server, TEST, new Seen()).code());
        }
    }

    @Test
    void anEventNamedErrorIsAnError() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("a"),
                    "event: error\ndata: {\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}", DONE)));
            ModelException e = fails(server, TEST, new Seen());
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals(java.util.Optional.of("Overloaded"), e.serverMessage());
        }
    }

    @Test
    void anErrorStatusWhoseBodyStallsIsReportedByItsStatus() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(RawServer.head(429, "Content-Type: application/json",
                    "Content-Length: 500") + "{\"error\":{\"mess").stall());
            ModelException e = fails(server, TEST, new Seen());
            assertEquals(ErrorCode.RATE_LIMITED, e.code());
            assertEquals(java.util.Optional.of("HTTP 429 (the body did not arrive within 5 s)"), e.detail());
            assertEquals(1, server.requests().size(), "a 429 without Retry-After is not asked again");
        }
    }

    @Test
    void aModelStillLoadingIsWaitedForAndAskedAgain() throws Exception {
        String loading = RawServer.head(503, "Content-Type: application/json", "Connection: close")
                + "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}";
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(loading),
                    new RawServer.Script().text(sse(text("Ready now."), STOP, DONE)));
            Seen seen = new Seen();
            answers(server, TEST, seen);
            assertEquals(List.of("Ready now."), seen.pieces);
            assertEquals(List.of("HTTP 503: Loading model / 1 s"), seen.waits);
            assertEquals(2, server.requests().size());
        }
    }

    @Test
    void aServerStillLoadingItsModelIsWaitedForBeforeItListsIt() throws Exception {
        String loading = RawServer.head(503, "Content-Type: application/json", "Connection: close")
                + "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}";
        String models = RawServer.head(200, "Content-Type: application/json", "Connection: close")
                + "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}";
        try (RawServer server = RawServer.start(); OpenAiBackend backend = server.backend(TEST)) {
            server.enqueue(new RawServer.Script().text(loading), new RawServer.Script().text(loading),
                    new RawServer.Script().text(models));
            Seen seen = new Seen();
            assertTrue(backend.availability(seen).isAvailable());
            assertEquals(List.of("HTTP 503: Loading model / 1 s", "HTTP 503: Loading model / 2 s"), seen.waits);
        }
    }

    @Test
    void aServerThatKeepsLoadingIsUnavailableAfterThePatienceWithWhatItSaid() throws Exception {
        String loading = RawServer.head(503, "Content-Type: application/json", "Connection: close")
                + "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}";
        try (RawServer server = RawServer.start(); OpenAiBackend backend = server.backend(TEST)) {
            for (int i = 0; i < 5; i++) {
                server.enqueue(new RawServer.Script().text(loading));
            }
            dev.aii.model.Availability a = backend.availability(new Seen());
            ModelException e = a.problem().orElseThrow();
            assertEquals(ErrorCode.UNAVAILABLE_SERVER, e.code());
            assertEquals(java.util.Optional.of("Loading model"), e.serverMessage());
            assertEquals(3, server.requests().size(), "1 s and 2 s of a 3 s patience, then the last answer stands");
        }
    }

    @Test
    void aRateLimitWithRetryAfterIsWaitedOut() throws Exception {
        String limited = RawServer.head(429, "Content-Type: application/json", "Retry-After: 1", "Connection: close")
                + "{\"error\":{\"message\":\"Rate limit reached\"}}";
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(limited), new RawServer.Script().text(sse(text("ok"), STOP, DONE)));
            Seen seen = new Seen();
            answers(server, TEST, seen);
            assertEquals(List.of("ok"), seen.pieces);
            assertEquals(List.of("HTTP 429: Rate limit reached / 1 s"), seen.waits);
        }
    }

    @Test
    void aServerBusyForLongerThanThePatienceIsRateLimited() throws Exception {
        // Ollama's words when its queue is full
        String busy = RawServer.head(503, "Content-Type: application/json", "Retry-After: 1", "Connection: close")
                + "{\"error\":\"server busy, please try again.  maximum pending requests exceeded\"}";
        try (RawServer server = RawServer.start()) {
            for (int i = 0; i < 10; i++) {
                server.enqueue(new RawServer.Script().text(busy));
            }
            Seen seen = new Seen();
            ModelException e = fails(server, TEST, seen);
            assertEquals(ErrorCode.RATE_LIMITED, e.code());
            assertEquals("Model busy, try again", e.getMessage());
            assertEquals(java.util.Optional.of("server busy, please try again.  maximum pending requests exceeded"),
                    e.serverMessage());
            assertEquals(3, seen.waits.size(), "three waits of 1 s fill a patience of 3 s");
            assertEquals(4, server.requests().size());
        }
    }

    @Test
    void aRetryAfterLongerThanThePatienceIsNotWaitedFor() throws Exception {
        String limited = RawServer.head(429, "Retry-After: 3600", "Content-Length: 0", "Connection: close");
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(limited));
            Seen seen = new Seen();
            assertEquals(ErrorCode.RATE_LIMITED, fails(server, TEST, seen).code());
            assertEquals(List.of(), seen.waits);
        }
    }

    @Test
    void cancellingEndsTheWaitForABusyServer() throws Exception {
        String busy = RawServer.head(503, "Retry-After: 25", "Content-Length: 0", "Connection: close");
        try (RawServer server = RawServer.start(); OpenAiBackend backend = server.backend(
                TEST.withPatience(Duration.ofSeconds(30))); Session session = backend.openSession(SessionOptions.plain())) {
            server.enqueue(new RawServer.Script().text(busy));
            Seen seen = new Seen() {
                @Override
                public void waiting(String reason, Duration wait) {
                    super.waiting(reason, wait);
                    Thread.ofPlatform().start(session::cancel);
                }
            };
            long start = System.nanoTime();
            session.respond("hi", seen);   // returns, no error: cancelled
            assertEquals(1, seen.waits.size());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos(), "the wait went on after cancel");
        }
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowed() throws Exception {
        String moved = RawServer.head(307, "Location: http://collector.example:8080/v1/chat/completions",
                "Content-Length: 0", "Connection: close");
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(moved));
            ModelException e = fails(server, TEST, new Seen());
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals(List.of("The model server redirected the request to http://collector.example:8080/v1/chat/completions",
                    "aii follows redirects only on the server's own host and port; set AII_BASE_URL to the server itself"),
                    e.lines());
            assertEquals(1, server.requests().size());
        }
    }

    @Test
    void aRedirectToAnotherPortOrSchemeOfTheSameHostIsNotFollowedEither() throws Exception {
        try (RawServer server = RawServer.start()) {
            for (String target : List.of("http://127.0.0.1:1/v1/chat/completions", "https://127.0.0.1/v1/chat/completions",
                    "//localhost/v1/chat/completions")) {
                server.enqueue(new RawServer.Script().text(RawServer.head(308, "Location: " + target, "Content-Length: 0",
                        "Connection: close")));
                ModelException e = fails(server, TEST, new Seen());
                assertTrue(e.getMessage().startsWith("The model server redirected the request to "), target);
            }
        }
    }

    @Test
    void aRedirectWithinTheServerIsFollowedWithTheSameRequest() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(RawServer.head(307, "Location: /v2/chat/completions",
                            "Content-Length: 0", "Connection: close")),
                    new RawServer.Script().text(sse(text("moved"), STOP, DONE)));
            Seen seen = new Seen();
            answers(server, TEST, seen);
            assertEquals(List.of("moved"), seen.pieces);
            List<String> requests = server.requests();
            assertTrue(requests.get(1).startsWith("POST /v2/chat/completions HTTP/1.1\r\n"), requests.get(1));
            String body = requests.get(0).substring(requests.get(0).indexOf("\r\n\r\n"));
            assertEquals(body, requests.get(1).substring(requests.get(1).indexOf("\r\n\r\n")));
        }
    }

    @Test
    void aRedirectLoopEnds() throws Exception {
        try (RawServer server = RawServer.start()) {
            for (int i = 0; i < 10; i++) {
                server.enqueue(new RawServer.Script().text(RawServer.head(307, "Location: /v1/chat/completions",
                        "Content-Length: 0", "Connection: close")));
            }
            ModelException e = fails(server, TEST, new Seen());
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals(Redirects.MAX_HOPS + 1, server.requests().size());
        }
    }

    @Test
    void aServerSilentBeforeAnyTextDidNotAnswerWithinTheTimeout() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().stall(), new RawServer.Script()
                    .text(RawServer.head(200, "Content-Type: text/event-stream", "Connection: close")).stall());
            Timeouts oneSecond = TEST.withIdle(Duration.ofSeconds(1));
            for (int i = 0; i < 2; i++) {
                ModelException e = fails(server, oneSecond, new Seen());
                assertEquals(ErrorCode.SERVER_ERROR, e.code());
                assertEquals("The model server did not answer within 1 s", e.getMessage());
            }
        }
    }

    @Test
    void aServerSilentAfterTextStoppedInTheMiddle() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("Partial"))).stall());
            Seen seen = new Seen();
            ModelException e = fails(server, TEST.withIdle(Duration.ofSeconds(1)), seen);
            assertEquals(List.of("Partial"), seen.pieces);
            assertEquals("The model server stopped responding in the middle of the answer", e.getMessage());
        }
    }

    @Test
    void theRequestIsAPlainHttp11PostWithItsHeaders() throws Exception {
        try (RawServer server = RawServer.start()) {
            server.enqueue(new RawServer.Script().text(sse(text("ok"), STOP, DONE)));
            answers(server, TEST, new Seen());
            String request = server.requests().get(0);
            List<String> head = new ArrayList<>(List.of(request.substring(0, request.indexOf("\r\n\r\n")).split("\r\n")));
            assertEquals("POST /v1/chat/completions HTTP/1.1", head.get(0));
            assertTrue(head.contains("Host: 127.0.0.1:" + server.rootUrl().replaceAll(".*:", "")), head.toString());
            assertTrue(head.contains("Content-Type: application/json"), head.toString());
            assertTrue(head.contains("Accept: text/event-stream"), head.toString());
            assertTrue(request.endsWith("\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"), request);
        }
    }
}
