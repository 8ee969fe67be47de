package dev.aii.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request a {@link FakeOpenAiServer} received, with helpers to read a
 * chat request's messages.
 *
 * @param method e.g. {@code POST}
 * @param path the path without the query, e.g. {@code /v1/chat/completions}
 * @param headers the headers, names in lower case
 * @param body the body as UTF-8 text
 */
public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body) {

    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
    }

    /** The first value of a header, by case-insensitive name. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /** The body as JSON. */
    public JsonNode json() {
        try {
            return JsonMapper.builder().build().readTree(body);
        } catch (JsonProcessingException e) {
            throw new AssertionError("the body of " + method + " " + path + " is not JSON: " + body, e);
        }
    }

    /** The {@code messages} of a chat request, in order. */
    public List<JsonNode> messages() {
        List<JsonNode> out = new ArrayList<>();
        json().path("messages").forEach(out::add);
        return out;
    }

    /** The {@code content} of every message with this role, in order. */
    public List<String> contents(String role) {
        return messages().stream().filter(m -> m.path("role").asText().equals(role))
                .map(m -> m.path("content").asText()).toList();
    }

    /** What the tools answered: the {@code content} of every {@code tool} message, in order. */
    public List<String> toolResults() {
        return contents("tool");
    }

    /** The {@code tool_call_id} of every {@code tool} message, in order. */
    public List<String> toolCallIds() {
        return messages().stream().filter(m -> m.path("role").asText().equals("tool"))
                .map(m -> m.path("tool_call_id").asText()).toList();
    }

    /** The content of the last {@code user} message: the prompt as the model got it. */
    public String lastUserMessage() {
        List<String> user = contents("user");
        if (user.isEmpty()) {
            throw new AssertionError("no user message in " + body);
        }
        return user.getLast();
    }

    /** The content of the {@code system} message, when there is one. */
    public Optional<String> systemMessage() {
        List<String> system = contents("system");
        return system.isEmpty() ? Optional.empty() : Optional.of(system.getFirst());
    }

    /** The names of the offered tools. */
    public List<String> toolNames() {
        List<String> out = new ArrayList<>();
        json().path("tools").forEach(t -> out.add(t.path("function").path("name").asText()));
        return out;
    }
}
