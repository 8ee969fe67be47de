package dev.aii.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Renders the steps of one reply as SSE frames in its {@link Wire} style. */
final class ChunkWriter {

    /** How many characters of arguments an OpenAI-style fragment carries. */
    static final int FRAGMENT = 4;

    private static final long CREATED = 1_767_225_600L;

    private final ObjectMapper mapper;
    private final Wire wire;
    private final String model;
    private final String id;
    private final Supplier<String> callIds;
    private boolean started;
    private boolean finished;
    private boolean anyCalls;
    private int nextIndex;

    ChunkWriter(ObjectMapper mapper, Wire wire, String model, String id, Supplier<String> callIds) {
        this.mapper = mapper;
        this.wire = wire;
        this.model = model;
        this.id = id;
        this.callIds = callIds;
    }

    List<String> text(String piece) {
        List<String> out = start();
        ObjectNode delta = delta();
        delta.put("content", piece);
        out.add(chunk(delta, null));
        return out;
    }

    List<String> calls(List<Reply.Call> calls) {
        List<String> out = start();
        anyCalls = true;
        switch (wire) {
            case OPENAI -> {
                for (Reply.Call c : calls) {
                    int index = nextIndex++;
                    ObjectNode first = delta();
                    ObjectNode call = first.putArray("tool_calls").addObject().put("index", index);
                    putId(call, c).put("type", "function");
                    call.putObject("function").put("name", c.name()).put("arguments", "");
                    out.add(chunk(first, null));
                    String args = c.arguments();
                    for (int i = 0; i < args.length(); ) {
                        int end = args.offsetByCodePoints(i, Math.min(FRAGMENT, args.codePointCount(i, args.length())));
                        ObjectNode more = delta();
                        more.putArray("tool_calls").addObject().put("index", index)
                                .putObject("function").put("arguments", args.substring(i, end));
                        out.add(chunk(more, null));
                        i = end;
                    }
                }
            }
            case OLLAMA -> {
                for (Reply.Call c : calls) {
                    ObjectNode delta = delta();
                    ObjectNode call = putId(delta.putArray("tool_calls").addObject(), c);
                    call.put("index", 0).put("type", "function");
                    call.putObject("function").put("name", c.name()).put("arguments", c.arguments());
                    out.add(chunk(delta, null));
                }
            }
            case APFEL -> {
                ObjectNode delta = delta();
                ArrayNode array = delta.putArray("tool_calls");
                for (Reply.Call c : calls) {
                    ObjectNode call = array.addObject().put("index", nextIndex++);
                    putId(call, c).put("type", "function");
                    call.putObject("function").put("name", c.name()).put("arguments", c.arguments());
                }
                out.add(chunk(delta, null));
            }
        }
        return out;
    }

    List<String> finish(String reason) {
        List<String> out = start();
        finished = true;
        out.add(chunk(delta(), reason));
        return out;
    }

    /** The end of a normal stream: a finish chunk unless one was sent, then {@code [DONE]}. */
    List<String> done() {
        List<String> out = new ArrayList<>();
        if (!finished) {
            out.addAll(finish(anyCalls ? "tool_calls" : "stop"));
        }
        out.add("data: [DONE]\n\n");
        return out;
    }

    /** OpenAI and apfel open with a chunk announcing the role; Ollama puts it on every delta instead. */
    private List<String> start() {
        List<String> out = new ArrayList<>();
        if (!started) {
            started = true;
            if (wire == Wire.OPENAI) {
                ObjectNode delta = mapper.createObjectNode().put("role", "assistant").put("content", "");
                out.add(chunk(delta, null));
            } else if (wire == Wire.APFEL) {
                out.add(chunk(mapper.createObjectNode().put("role", "assistant"), null));
            }
        }
        return out;
    }

    private ObjectNode delta() {
        ObjectNode delta = mapper.createObjectNode();
        if (wire == Wire.OLLAMA) {
            delta.put("role", "assistant").put("content", "");
        }
        return delta;
    }

    private ObjectNode putId(ObjectNode call, Reply.Call c) {
        if (c.id() == null) {
            call.put("id", callIds.get());
        } else if (!c.id().isEmpty()) {
            call.put("id", c.id());
        }
        return call;
    }

    private String chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = mapper.createObjectNode()
                .put("id", id).put("object", "chat.completion.chunk").put("created", CREATED).put("model", model);
        if (wire == Wire.OLLAMA) {
            chunk.put("system_fingerprint", "fp_ollama");
        }
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        if (wire == Wire.APFEL) {
            choice.putNull("logprobs");
        }
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        try {
            return "data: " + mapper.writeValueAsString(chunk) + "\n\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
