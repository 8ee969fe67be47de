package dev.aii.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One scripted answer of a {@link FakeOpenAiServer} to one chat request:
 * a stream of steps in a {@link Wire} style and how it ends, or an HTTP
 * error.
 *
 * {@snippet :
 * server.enqueue(
 *         Reply.toolCall(Wire.OLLAMA, "run_command", "{\"executable\":\"df\",\"arguments\":[\"-h\"]}"),
 *         Reply.text("Your disk is ", "half full."));
 * server.enqueue(Reply.stream().text("Partial ").pause(Duration.ofMillis(50)).text("answer").drop());
 * server.enqueue(Reply.rateLimited());
 * }
 */
public final class Reply {

    /** One tool call; {@code id} {@code null} means the server makes one up, {@code ""} means none is sent. */
    public record Call(String name, String arguments, String id) {

        public Call {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }

        /** The same call with {@code newId}. */
        public Call withId(String newId) {
            return new Call(name, arguments, Objects.requireNonNull(newId, "newId"));
        }

        /** The same call sent without any id, as some servers do. */
        public Call withoutId() {
            return new Call(name, arguments, "");
        }
    }

    /**
     * A point in a stream where the server holds on until the test lets it
     * go: e.g. until the test has seen the text before it on a terminal.
     */
    public static final class Gate {

        private final java.util.concurrent.CountDownLatch open = new java.util.concurrent.CountDownLatch(1);

        /** Lets every stream held here go on. */
        public void release() {
            open.countDown();
        }

        /** Waits until released or {@code closing} counts down; true when released. */
        boolean awaitRelease(java.util.concurrent.CountDownLatch closing) throws InterruptedException {
            while (!open.await(20, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (closing.getCount() == 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** What the stream does after its steps. */
    enum Ending {
        /** The finish chunk (unless a step gave one) and {@code data: [DONE]}. */
        DONE,
        /** The body just ends: no finish reason, no {@code [DONE]}. */
        DROP,
        /** The connection is cut in the middle of the body. */
        ABORT,
        /** Nothing more is sent and the connection stays open until the server closes. */
        STALL
    }

    sealed interface Step {
    }

    record Text(String text) implements Step {
    }

    record Pause(Duration duration) implements Step {
    }

    record Hold(Gate gate) implements Step {
    }

    record Calls(List<Call> calls) implements Step {
    }

    record Finish(String reason) implements Step {
    }

    /** {@code data: <data>} and a blank line, verbatim. */
    record Event(String data) implements Step {
    }

    /** Bytes written as they are. */
    record Raw(String text) implements Step {
    }

    final int status;
    /** The whole body of a reply that is not a stream; null for a stream. */
    final String body;
    final Wire wire;
    final List<Step> steps;
    final Ending ending;

    private Reply(int status, String body, Wire wire, List<Step> steps, Ending ending) {
        this.status = status;
        this.body = body;
        this.wire = wire;
        this.steps = List.copyOf(steps);
        this.ending = ending;
    }

    public static Call call(String name, String arguments) {
        return new Call(name, arguments, null);
    }

    /** A text answer in the OpenAI style, one chunk a piece. */
    public static Reply text(String... pieces) {
        return text(Wire.OPENAI, pieces);
    }

    public static Reply text(Wire wire, String... pieces) {
        return stream(wire).text(pieces).done();
    }

    /** An answer that is one tool call. */
    public static Reply toolCall(Wire wire, String name, String arguments) {
        return toolCalls(wire, call(name, arguments));
    }

    /** An answer that is tool calls only. */
    public static Reply toolCalls(Wire wire, Call... calls) {
        return stream(wire).toolCalls(calls).done();
    }

    /** {@code finish_reason: "length"} before any text: what a server sends when the prompt fills the context. */
    public static Reply lengthBeforeText() {
        return stream().finish("length").done();
    }

    /** A stream in the OpenAI style, to build step by step. */
    public static Builder stream() {
        return new Builder(Wire.OPENAI);
    }

    public static Builder stream(Wire wire) {
        return new Builder(Objects.requireNonNull(wire, "wire"));
    }

    /** The streamed body exactly as given, each piece written and flushed on its own; nothing is added. */
    public static Reply raw(String... pieces) {
        Builder b = stream();
        for (String p : pieces) {
            b.raw(p);
        }
        return b.drop();
    }

    /** An HTTP error with a JSON (or any) body. */
    public static Reply httpError(int status, String body) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an HTTP error status is 4xx or 5xx: " + status);
        }
        return new Reply(status, Objects.requireNonNull(body, "body"), Wire.OPENAI, List.of(), Ending.DONE);
    }

    /** HTTP 200 with this JSON body, not a stream: what a server that ignores {@code "stream": true} sends. */
    public static Reply json(String body) {
        return new Reply(200, Objects.requireNonNull(body, "body"), Wire.OPENAI, List.of(), Ending.DONE);
    }

    /** HTTP 429 with an OpenAI-style error body. */
    public static Reply rateLimited() {
        return httpError(429, "{\"error\":{\"message\":\"Rate limit reached, retry later\",\"type\":\"rate_limit_error\"}}");
    }

    /** HTTP 400 as llama.cpp refuses a prompt longer than its context. */
    public static Reply contextRefusal() {
        return httpError(400, "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available context size,"
                + " try increasing it\",\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":5000,\"n_ctx\":4096}}");
    }

    /** Builds a streamed reply; ends with {@link #done()}, {@link #drop()}, {@link #abort()} or {@link #stall()}. */
    public static final class Builder {

        private final Wire wire;
        private final List<Step> steps = new ArrayList<>();

        private Builder(Wire wire) {
            this.wire = wire;
        }

        /** Text, one chunk a piece. */
        public Builder text(String... pieces) {
            for (String p : pieces) {
                steps.add(new Text(Objects.requireNonNull(p, "piece")));
            }
            return this;
        }

        /** Sends nothing more until {@code gate} is released (or the server closes). */
        public Builder hold(Gate gate) {
            steps.add(new Hold(Objects.requireNonNull(gate, "gate")));
            return this;
        }

        /** Waits before the next step; the connection stays quiet meanwhile. */
        public Builder pause(Duration duration) {
            steps.add(new Pause(Objects.requireNonNull(duration, "duration")));
            return this;
        }

        public Builder toolCall(String name, String arguments) {
            return toolCalls(call(name, arguments));
        }

        public Builder toolCalls(Call... calls) {
            steps.add(new Calls(List.of(calls)));
            return this;
        }

        /** A chunk with this finish reason; {@link #done()} then adds none. */
        public Builder finish(String reason) {
            steps.add(new Finish(Objects.requireNonNull(reason, "reason")));
            return this;
        }

        /** One SSE event with this data, verbatim: e.g. an {@code {"error":...}} object. */
        public Builder event(String data) {
            steps.add(new Event(Objects.requireNonNull(data, "data")));
            return this;
        }

        /** Bytes written as they are, e.g. CRLF line ends or comment lines. */
        public Builder raw(String text) {
            steps.add(new Raw(Objects.requireNonNull(text, "text")));
            return this;
        }

        /** Ends normally: a finish chunk ({@code tool_calls} or {@code stop}) unless given, then {@code [DONE]}. */
        public Reply done() {
            return build(Ending.DONE);
        }

        /** Ends the body cleanly but early: no finish reason, no {@code [DONE]}. */
        public Reply drop() {
            return build(Ending.DROP);
        }

        /** Cuts the connection in the middle of the body. */
        public Reply abort() {
            return build(Ending.ABORT);
        }

        /** Sends nothing more and keeps the connection open until the server is closed. */
        public Reply stall() {
            return build(Ending.STALL);
        }

        private Reply build(Ending ending) {
            return new Reply(200, null, wire, steps, ending);
        }
    }
}
