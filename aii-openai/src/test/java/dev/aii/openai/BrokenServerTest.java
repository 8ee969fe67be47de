package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Servers that answer 200 with something other than a clean stream: a
 * stream that never closes after its finish reason, a whole JSON answer
 * labelled as events, a login page, compressed bytes, nothing. An answer is
 * an answer however it is labelled; what is no answer is {@code server_error}
 * with what arrived.
 */
class BrokenServerTest {

    /** Long enough that a test waiting for it would hit its own time limit first. */
    private static final Timeouts PATIENT = Timeouts.defaults().withIdle(Duration.ofMinutes(10));

    private static final Duration HANG = Duration.ofSeconds(30);

    private static final String EVENTS = "Content-Type: text/event-stream";

    private static final String WHOLE_ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Whole answer.\"},\"finish_reason\":\"stop\"}]}";

    private static List<String> answer(RawServer server, RawServer.Script script) throws ModelException {
        server.enqueue(script);
        List<String> pieces = new ArrayList<>();
        try (OpenAiBackend backend = server.backend(PATIENT); Session session = backend.openSession(SessionOptions.plain())) {
            assertTimeoutPreemptively(HANG, () -> session.respond("hi", pieces::add));
        }
        return pieces;
    }

    private static ModelException failure(RawServer server, RawServer.Script script) {
        return assertThrows(ModelException.class, () -> answer(server, script));
    }

    @Test
    void aFinishReasonEndsTheAnswerOnAConnectionThatStaysOpen() throws Exception {
        try (RawServer server = RawServer.start()) {
            List<String> pieces = answer(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Transfer-Encoding: chunked"))
                    .text(RawServer.chunk("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Done here.\"}}]}\n\n"))
                    .text(RawServer.chunk("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"))
                    .stall());
            assertEquals(List.of("Done here."), pieces);
        }
    }

    @Test
    void aUsageChunkRightAfterTheFinishReasonStillCounts() throws Exception {
        try (RawServer server = RawServer.start()) {
            List<String> pieces = answer(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Connection: close"))
                    .text("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Text\"},\"finish_reason\":\"stop\"}]}\n\n"
                            + "data: {\"choices\":[],\"usage\":{\"total_tokens\":12}}\n\n")
                    .stall());
            assertEquals(List.of("Text"), pieces);
        }
    }

    @Test
    void aWholeJsonAnswerLabelledAsEventsIsTheAnswer() throws Exception {
        try (RawServer server = RawServer.start()) {
            assertEquals(List.of("Whole answer."), answer(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Connection: close")).text(WHOLE_ANSWER)));
            assertEquals(List.of("Whole answer."), answer(server, new RawServer.Script()
                    .text(RawServer.head(200, "Content-Type: text/event-stream; charset=utf-8",
                            "Transfer-Encoding: chunked"))
                    .text(RawServer.chunk("\n  " + WHOLE_ANSWER.substring(0, 40)))
                    .text(RawServer.chunk(WHOLE_ANSWER.substring(40) + "\n")).text("0\r\n\r\n")));
        }
    }

    @Test
    void eventsWithoutTheirContentTypeAreStillEvents() throws Exception {
        try (RawServer server = RawServer.start()) {
            assertEquals(List.of("Hi"), answer(server, new RawServer.Script()
                    .text(RawServer.head(200, "Content-Type: text/plain", "Connection: close"))
                    .text(": keep-alive\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                            + "data: [DONE]\n\n")));
        }
    }

    @Test
    void aLoginPageIsAServerErrorSayingWhatArrived() throws Exception {
        String page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>\n";
        try (RawServer server = RawServer.start()) {
            ModelException e = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, "Content-Type: text/html; charset=utf-8", "Connection: close"))
                    .text(page));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals(4, e.code().exitCode());
            assertEquals("The model server failed: an HTML page instead of a chat completion (HTTP 200)",
                    e.getMessage());
            assertEquals(Optional.of("HTTP 200, Content-Type: text/html; charset=utf-8: <!DOCTYPE html> <html><head>"
                    + "<title>Sign in</title></head><body>Please sign in</body></html>"), e.detail());
            assertEquals(Optional.of(page.strip()), e.serverMessage());
        }
    }

    @Test
    void aLoginPageLabelledAsEventsIsAServerErrorToo() throws Exception {
        try (RawServer server = RawServer.start()) {
            ModelException e = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Connection: close")).text("<html>Sign in</html>"));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals("The model server failed: an HTML page instead of a chat completion (HTTP 200)",
                    e.getMessage());
        }
    }

    @Test
    void gzipBytesAreAServerErrorNamingTheCompression() throws Exception {
        byte[] gzip = {(byte) 0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, (byte) 0xcb, 0x48, (byte) 0xcd, (byte) 0xc9};
        try (RawServer server = RawServer.start()) {
            ModelException e = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Connection: close")).bytes(gzip));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals("The model server failed: compressed data (gzip) instead of a chat completion (HTTP 200)",
                    e.getMessage());
            ModelException labelled = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Content-Encoding: br", "Connection: close"))
                    .bytes(new byte[] {0x0b, 0x02, (byte) 0x80, 0x68, 0x69, 0x03}));
            assertEquals("The model server failed: compressed data (br) instead of a chat completion (HTTP 200)",
                    labelled.getMessage());
        }
    }

    @Test
    void anEmptyAnswerIsAServerError() throws Exception {
        try (RawServer server = RawServer.start()) {
            ModelException e = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, EVENTS, "Content-Length: 0")));
            assertEquals(ErrorCode.SERVER_ERROR, e.code());
            assertEquals("The model server failed: an empty answer (HTTP 200)", e.getMessage());
        }
    }

    @Test
    void plainTextIsAServerErrorNamingItsType() throws Exception {
        byte[] text = "Unauthorized\n".getBytes(StandardCharsets.UTF_8);
        try (RawServer server = RawServer.start()) {
            ModelException e = failure(server, new RawServer.Script()
                    .text(RawServer.head(200, "Content-Type: text/plain; charset=utf-8", "Connection: close"))
                    .bytes(text));
            assertEquals("The model server failed: text/plain instead of a chat completion (HTTP 200)",
                    e.getMessage());
            assertEquals(Optional.of("Unauthorized"), e.serverMessage());
            assertTrue(e.detail().orElseThrow().endsWith(": Unauthorized"), e.detail().orElseThrow());
        }
    }
}
