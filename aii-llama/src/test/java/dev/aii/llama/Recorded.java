package dev.aii.llama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP request as aii sent it, taken from the bytes of a connection.
 *
 * @param headers names in lower case
 */
record Recorded(String method, String path, Map<String, String> headers, String body) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The requests in what a client sent on one connection (keep-alive: several, one after another). */
    static List<Recorded> parse(String sent) {
        List<Recorded> requests = new ArrayList<>();
        byte[] bytes = sent.getBytes(StandardCharsets.UTF_8);
        int at = 0;
        while (at < bytes.length) {
            int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), at);
            if (end < 0) {
                break;
            }
            String head = new String(bytes, at, end - at, StandardCharsets.UTF_8);
            String[] lines = head.split("\r\n");
            String[] first = lines[0].split(" ");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            int bodyStart = end + 4;
            int bodyEnd = Math.min(bytes.length, bodyStart + length);
            requests.add(new Recorded(first[0], first[1], headers,
                    new String(bytes, bodyStart, bodyEnd - bodyStart, StandardCharsets.UTF_8)));
            at = bodyEnd;
        }
        return requests;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    JsonNode json() {
        try {
            return JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    List<JsonNode> messages() {
        List<JsonNode> all = new ArrayList<>();
        json().path("messages").forEach(all::add);
        return all;
    }

    /** The content of every {@code tool} message, in order. */
    List<String> toolResults() {
        return messages().stream().filter(m -> m.path("role").asText().equals("tool"))
                .map(m -> m.path("content").asText()).toList();
    }

    /** The arguments of every tool call in the history, as sent. */
    List<String> historyArguments() {
        List<String> all = new ArrayList<>();
        for (JsonNode m : messages()) {
            m.path("tool_calls").forEach(c -> all.add(c.path("function").path("arguments").asText()));
        }
        return all;
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
