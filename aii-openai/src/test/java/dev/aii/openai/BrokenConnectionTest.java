package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A connection that breaks at any byte of a stream, as a broken network or a
 * crashing server leaves it: before, inside and after an event, inside a
 * chunk header, closed or reset. Whatever text arrived whole is delivered;
 * the answer fails unless the server had said it was over.
 */
class BrokenConnectionTest {

    private static final List<String> TEXTS = List.of("Alpha ", "Beta ", "Gamma");
    private static final Timeouts QUICK = Timeouts.defaults().withIdle(Duration.ofSeconds(20));

    /** One event as llama-server frames it: its data line and a blank line, alone in a chunk. */
    private record Event(String payload, boolean finish) {
    }

    private static List<Event> events() {
        List<Event> events = new ArrayList<>();
        events.add(new Event(data("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}"), false));
        for (String t : TEXTS) {
            events.add(new Event(data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + t + "\"}}]}"), false));
        }
        events.add(new Event(data("{\"choices\":[{\"finish_reason\":\"stop\",\"index\":0,\"delta\":{}}],"
                + "\"timings\":{\"prompt_n\":10,\"predicted_n\":3}}"), true));
        events.add(new Event(data("[DONE]"), true));
        return events;
    }

    private static String data(String json) {
        return "data: " + json + "\n\n";
    }

    /** The response, and for each event where its data line ends and where its chunk ends. */
    private record Layout(byte[] bytes, int headEnd, int[] lineEnds, int[] chunkEnds, boolean[] finishes) {
    }

    private static Layout layout(boolean chunked) {
        StringBuilder all = new StringBuilder(chunked
                ? RawServer.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked")
                : RawServer.head(200, "Content-Type: text/event-stream", "Connection: close"));
        int headEnd = utf8(all);
        List<Event> events = events();
        int[] lineEnds = new int[events.size()];
        int[] chunkEnds = new int[events.size()];
        boolean[] finishes = new boolean[events.size()];
        for (int i = 0; i < events.size(); i++) {
            String payload = events.get(i).payload();
            int start = utf8(all) + (chunked ? Integer.toHexString(utf8(payload)).length() + 2 : 0);
            all.append(chunked ? RawServer.chunk(payload) : payload);
            // Without framing the end of the connection ends the last line too: its LF is not needed.
            lineEnds[i] = start + payload.indexOf('\n') + (chunked ? 1 : 0);
            chunkEnds[i] = utf8(all);
            finishes[i] = events.get(i).finish();
        }
        if (chunked) {
            all.append("0\r\n\r\n");
        }
        return new Layout(all.toString().getBytes(StandardCharsets.UTF_8), headEnd, lineEnds, chunkEnds, finishes);
    }

    private static int utf8(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void aChunkedStreamCutAtAnyByteKeepsEveryWholeEvent() throws Exception {
        cutEverywhere(layout(true), false);
    }

    @Test
    void aChunkedStreamResetAtAnyByteKeepsEveryWholeEvent() throws Exception {
        cutEverywhere(layout(true), true);
    }

    @Test
    void aStreamWithoutFramingCutAtAnyByteKeepsEveryWholeEvent() throws Exception {
        cutEverywhere(layout(false), false);
    }

    private static void cutEverywhere(Layout layout, boolean reset) throws Exception {
        try (RawServer server = RawServer.start(); OpenAiBackend backend = server.backend(QUICK)) {
            for (int cut = 0; cut <= layout.bytes().length; cut++) {
                byte[] sent = java.util.Arrays.copyOf(layout.bytes(), cut);
                RawServer.Script script = new RawServer.Script().bytes(sent);
                server.enqueue(reset ? script.reset() : script);
                List<String> pieces = new ArrayList<>();
                ModelException failure = null;
                try (Session session = backend.openSession(SessionOptions.plain())) {
                    session.respond("hi", pieces::add);
                } catch (ModelException e) {
                    failure = e;
                }
                check(layout, cut, pieces, failure, reset);
            }
        }
    }

    /**
     * With a reset, the kernel may throw away what it had received but not
     * yet handed over, so only the order and the outcome are checked.
     */
    private static void check(Layout layout, int cut, List<String> pieces, ModelException failure, boolean reset) {
        String where = "cut after " + cut + " of " + layout.bytes().length + " bytes: got " + pieces + ", " + failure;
        int whole = 0;      // events whose chunk arrived whole: their text must be there
        int lines = 0;      // events whose data line arrived: their text may be there
        boolean finished = false;
        for (int i = 0; i < layout.lineEnds().length; i++) {
            if (layout.chunkEnds()[i] <= cut) {
                whole = i + 1;
                finished |= layout.finishes()[i];
            }
            if (layout.lineEnds()[i] <= cut) {
                lines = i + 1;
            }
        }
        // event 0 carries no text; events 1..3 carry TEXTS
        int mustHave = Math.min(TEXTS.size(), Math.max(0, whole - 1));
        int mayHave = Math.min(TEXTS.size(), Math.max(0, lines - 1));
        assertTrue((reset || pieces.size() >= mustHave) && pieces.size() <= mayHave, where);
        assertEquals(TEXTS.subList(0, pieces.size()), pieces, where);
        if (finished && !reset) {
            assertEquals(null, failure, where);
        }
        if (failure != null) {
            assertEquals(ErrorCode.INTERNAL_ERROR, failure.code(), where);
        } else {
            assertEquals(TEXTS, pieces, where);
        }
    }

    @Test
    void aBadChunkHeaderAfterTextKeepsTheText() throws Exception {
        String head = RawServer.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
        String first = RawServer.chunk(data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Kept\"}}]}"));
        try (RawServer server = RawServer.start(); OpenAiBackend backend = server.backend(QUICK)) {
            for (String bad : List.of("zz\r\n", "-1\r\n", "ffffffffffffffffff\r\n", "\r\n")) {
                server.enqueue(new RawServer.Script().text(head + first + bad + "data: lost\n\n"));
                List<String> pieces = new ArrayList<>();
                try (Session session = backend.openSession(SessionOptions.plain())) {
                    ModelException e = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class,
                            () -> session.respond("hi", pieces::add));
                    assertEquals("The connection to the model server closed in the middle of the answer", e.getMessage(),
                            bad);
                }
                assertEquals(List.of("Kept"), pieces, bad);
            }
        }
    }
}
