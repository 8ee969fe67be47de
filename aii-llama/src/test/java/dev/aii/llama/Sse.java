package dev.aii.llama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a chat answer as it went over the wire (head, chunked framing) to
 * know what a client could have got from it, and finds the points at which
 * the proxy cuts it.
 */
final class Sse {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] HEAD_END = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** The end of an event that ends a chunk: its blank line, then the chunk's CRLF. */
    private static final byte[] CHUNK_END = "\n\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private Sse() {
    }

    /**
     * The text of every event whose data line arrived whole, in order: what
     * a client that loses nothing shows. Chunk payloads count as far as they
     * arrived.
     */
    static String text(byte[] response) {
        int head = indexOf(response, HEAD_END, 0);
        if (head < 0) {
            return "";
        }
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int at = head + 4;
        while (at < response.length) {
            int lineEnd = indexOf(response, "\r\n".getBytes(StandardCharsets.US_ASCII), at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(new String(response, at, lineEnd - at, StandardCharsets.US_ASCII).strip(), 16);
            int start = lineEnd + 2;
            int end = Math.min(response.length, start + size);
            payload.write(response, start, end - start);
            if (size == 0 || end < start + size) {
                break;
            }
            at = end + 2;
        }
        StringBuilder text = new StringBuilder();
        String all = payload.toString(StandardCharsets.UTF_8);
        int from = 0;
        int lf;
        while ((lf = all.indexOf('\n', from)) >= 0) {
            String line = all.substring(from, lf);
            from = lf + 1;
            if (line.startsWith("data: {")) {
                try {
                    JsonNode content = JSON.readTree(line.substring(6)).path("choices").path(0).path("delta").path("content");
                    if (content.isTextual()) {
                        text.append(content.asText());
                    }
                } catch (java.io.IOException e) {
                    throw new AssertionError("not JSON: " + line, e);
                }
            }
        }
        return text.toString();
    }

    /** The finish reasons of the events in {@code response}, in order. */
    static List<String> finishReasons(byte[] response) {
        List<String> reasons = new ArrayList<>();
        String all = new String(response, StandardCharsets.UTF_8);
        int at = 0;
        String key = "\"finish_reason\":\"";
        while ((at = all.indexOf(key, at)) >= 0) {
            at += key.length();
            reasons.add(all.substring(at, all.indexOf('"', at)));
        }
        return reasons;
    }

    /** Where the {@code n}th chunk (from 1) ends, its CRLF included; -1 while it has not arrived. */
    static int afterChunk(byte[] response, int n) {
        int at = indexOf(response, HEAD_END, 0);
        for (int i = 0; i < n && at >= 0; i++) {
            at = indexOf(response, CHUNK_END, at + 1);
        }
        return at < 0 ? -1 : at + CHUNK_END.length;
    }

    /** Cut after the {@code n}th chunk: between two events. */
    static Proxy.Cut betweenEvents(int n) {
        return bytes -> afterChunk(bytes, n);
    }

    /** Cut after the first digit of the chunk header that follows the {@code n}th chunk. */
    static Proxy.Cut insideChunkHeader(int n) {
        return bytes -> {
            int at = afterChunk(bytes, n);
            return at < 0 || bytes.length < at + 2 ? -1 : at + 1;
        };
    }

    /** Cut in the middle of the data line of the event after the {@code n}th chunk. */
    static Proxy.Cut insideEvent(int n) {
        return bytes -> {
            int at = afterChunk(bytes, n);
            if (at < 0) {
                return -1;
            }
            int data = indexOf(bytes, "data: {".getBytes(StandardCharsets.US_ASCII), at);
            return data < 0 || bytes.length < data + 30 ? -1 : data + 30;
        };
    }

    static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
