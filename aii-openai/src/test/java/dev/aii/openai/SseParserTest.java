package dev.aii.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.model.ModelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SseParserTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            LF                          | data: a\\n\\ndata: b\\n\\n                      | a,b
            CRLF                        | data: a\\r\\n\\r\\ndata: b\\r\\n\\r\\n              | a,b
            CR                          | data: a\\r\\rdata: b\\r\\r                      | a,b
            no space after colon        | data:a\\n\\n                                  | a
            only the first space goes   | data:  a\\n\\n                                | ' a'
            comments are skipped        | : ping\\n\\ndata: a\\n: more\\n\\n              | a
            other fields are skipped    | event: x\\nid: 1\\nretry: 5\\ndata: a\\n\\n     | a
            data lines join with LF     | data: a\\ndata: b\\n\\n                        | 'a\\nb'
            blank lines alone are none  | \\n\\n\\n\\ndata: a\\n\\n                        | a
            a field without value       | data\\n\\n                                     | ''
            a BOM at the start          | \\uFEFFdata: a\\n\\n                           | a
            a last event without blank  | data: a\\n\\ndata: [DONE]\\n                    | a,[DONE]
            a last line without end     | data: a\\n\\ndata: [DONE]                        | a,[DONE]
            """)
    void eventsAreFoundWhateverTheLineEnds(String name, String stream, String expected) throws ModelException {
        List<String> want = Arrays.stream(expected.split(",", -1)).map(SseParserTest::unescape).toList();
        assertEquals(want, parse(unescape(stream)));
    }

    @Test
    void everySplitOfTheBytesGivesTheSameEvents() throws ModelException {
        String stream = ": hi\r\ndata: {\"a\":\"wörld ✓ 😀\"}\r\n\r\ndata: x\ndata: y\n\rdata: [DONE]\r\n\r\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        List<String> whole = parse(stream);
        assertEquals(List.of("{\"a\":\"wörld ✓ 😀\"}", "x\ny", "[DONE]"), whole);
        for (int i = 0; i <= bytes.length; i++) {
            for (int j = i; j <= bytes.length; j++) {
                List<String> events = new ArrayList<>();
                SseParser parser = new SseParser(d -> events.add(d));
                parser.feed(bytes, 0, i);
                parser.feed(bytes, i, j - i);
                parser.feed(bytes, j, bytes.length - j);
                parser.finish();
                assertEquals(whole, events, "split at " + i + " and " + j);
            }
        }
    }

    @Test
    void eachEventIsDeliveredAsSoonAsItsBlankLineArrives() throws ModelException {
        List<String> events = new ArrayList<>();
        SseParser parser = new SseParser(d -> events.add(d));
        byte[] first = "data: one\n\ndata: tw".getBytes(StandardCharsets.UTF_8);
        parser.feed(first, 0, first.length);
        assertEquals(List.of("one"), events);
    }

    @Test
    void theListenerStopsTheParser() throws ModelException {
        List<String> events = new ArrayList<>();
        SseParser parser = new SseParser(d -> {
            events.add(d);
            return !d.equals("stop");
        });
        byte[] bytes = "data: a\n\ndata: stop\n\ndata: b\n\n".getBytes(StandardCharsets.UTF_8);
        assertFalse(parser.feed(bytes, 0, bytes.length));
        assertEquals(List.of("a", "stop"), events);
    }

    @Test
    void aLineBeyondTheLimitIsRefused() {
        SseParser parser = new SseParser(d -> true);
        byte[] chunk = new byte[1024 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        ModelException e = assertThrows(ModelException.class, () -> {
            for (int i = 0; i <= SseParser.MAX_LINE_BYTES / chunk.length; i++) {
                parser.feed(chunk, 0, chunk.length);
            }
        });
        assertEquals("The model server sent a stream line that is too long", e.getMessage());
    }

    private static List<String> parse(String stream) throws ModelException {
        List<String> events = new ArrayList<>();
        SseParser parser = new SseParser(d -> events.add(d));
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        parser.feed(bytes, 0, bytes.length);
        parser.finish();
        return events;
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\r", "\r").replace("\\uFEFF", "\uFEFF");
    }
}
