package dev.aii.llamacpp.chat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.aii.model.ToolSpec;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The JSON the shim takes and gives: messages and tools in, a parsed answer out (jackson-core's streaming API). */
final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();

    /** What the shim parsed from an answer: its text and its tool calls (ids not yet given). */
    record Parsed(String content, List<Message.Call> calls) {

        Parsed {
            calls = List.copyOf(calls);
        }
    }

    private Json() {
    }

    static String messages(List<Message> messages) {
        return write(g -> {
            g.writeStartArray();
            for (Message m : messages) {
                g.writeStartObject();
                g.writeStringField("role", m.role());
                g.writeStringField("content", m.content());
                if (!m.calls().isEmpty()) {
                    g.writeArrayFieldStart("tool_calls");
                    for (Message.Call c : m.calls()) {
                        g.writeStartObject();
                        g.writeStringField("id", c.id());
                        g.writeStringField("type", "function");
                        g.writeObjectFieldStart("function");
                        g.writeStringField("name", c.name());
                        g.writeStringField("arguments", c.arguments());
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
                if (!m.callId().isEmpty()) {
                    g.writeStringField("tool_call_id", m.callId());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** The tools array; each schema is JSON text already, written as it is. */
    static String tools(List<ToolSpec> tools) {
        return write(g -> {
            g.writeStartArray();
            for (ToolSpec t : tools) {
                g.writeStartObject();
                g.writeStringField("type", "function");
                g.writeObjectFieldStart("function");
                g.writeStringField("name", t.name());
                g.writeStringField("description", t.description());
                g.writeFieldName("parameters");
                g.writeRawValue(t.parametersSchema());
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** The content and tool calls of the shim's JSON chat message. */
    static Parsed parsed(String json) {
        StringBuilder content = new StringBuilder();
        List<Message.Call> calls = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, json);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("content") && value == JsonToken.VALUE_STRING) {
                    content.append(p.getText());
                } else if (field.equals("tool_calls") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        calls.add(call(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the shim's answer is not the JSON it should be: " + json, e);
        }
        return new Parsed(content.toString(), calls);
    }

    private static Message.Call call(JsonParser p) throws IOException {
        String id = "";
        String name = "";
        String arguments = "";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("id") && value == JsonToken.VALUE_STRING) {
                id = p.getText();
            } else if (field.equals("function") && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (f.equals("name") && v == JsonToken.VALUE_STRING) {
                        name = p.getText();
                    } else if (f.equals("arguments") && v == JsonToken.VALUE_STRING) {
                        arguments = p.getText();
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return new Message.Call(id, name, arguments);
    }

    /** The strings of a JSON array of strings. */
    static List<String> strings(String json) {
        List<String> out = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_ARRAY, json);
            while (p.nextToken() == JsonToken.VALUE_STRING) {
                out.add(p.getText());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON array of strings: " + json, e);
        }
        return out;
    }

    private static void expect(JsonToken got, JsonToken wanted, String json) throws IOException {
        if (got != wanted) {
            throw new IOException("expected " + wanted + " at the start of " + json);
        }
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
