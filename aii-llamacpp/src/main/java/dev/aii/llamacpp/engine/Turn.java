package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** One rendered conversation: the prompt, its stop strings, and the answer as it is parsed. */
public final class Turn implements AutoCloseable {

    private final MemorySegment turn;
    private final Buffers buffers = new Buffers();
    private boolean closed;

    Turn(MemorySegment turn) {
        this.turn = turn;
    }

    /** The prompt, the template's generation prompt at its end. */
    public String prompt() {
        try (Arena arena = Arena.ofConfined()) {
            return Text.fill(arena, (buffer, capacity, length) -> {
                aiillama_h.aiillama_turn_prompt(live(), buffer, capacity, length);
                return 0;
            });
        }
    }

    /** The strings besides end-of-generation tokens that end the answer, as a JSON array. */
    public String stopsJson() {
        try (Arena arena = Arena.ofConfined()) {
            return Text.fill(arena, (buffer, capacity, length) -> {
                aiillama_h.aiillama_turn_stops(live(), buffer, capacity, length);
                return 0;
            });
        }
    }

    /**
     * Adds {@code text} to the answer and parses the answer so far, as
     * llama-server does after every token.
     *
     * @return what that adds to the answer's text: nothing while a tool call is being written
     * @throws NativeFailure only when the shim fails; an answer that does not parse yet adds nothing
     */
    public String feed(String text) throws NativeFailure {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        MemorySegment in = buffers.in(bytes);
        int code = aiillama_h.aiillama_turn_feed(live(), in, bytes.length, buffers.out(), buffers.outCapacity(),
                buffers.length());
        java.util.Optional<String> added = buffers.text();
        if (code != aiillama_h.AIILLAMA_OK()) {
            throw NativeFailure.shim("llama.cpp cannot parse the answer", new Text.Status(code, added.orElse("")));
        }
        if (added.isPresent()) {
            return added.get();
        }
        try (Arena arena = Arena.ofConfined()) {
            // More text than the buffer holds: the shim has it already, so only ask for it again.
            return Text.call(arena, (buffer, capacity, length) ->
                    aiillama_h.aiillama_turn_feed(live(), in, 0, buffer, capacity, length)).text();
        }
    }

    /**
     * The whole answer parsed as complete, as a JSON chat message ({@code content}, {@code tool_calls}).
     *
     * @throws NativeFailure {@link Status#PARSE} when the answer does not parse
     */
    public String finish() throws NativeFailure {
        try (Arena arena = Arena.ofConfined()) {
            Text.Status status = Text.call(arena, (buffer, capacity, length) ->
                    aiillama_h.aiillama_turn_finish(live(), buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp cannot parse the answer", status);
            }
            return status.text();
        }
    }

    /**
     * A sampler for the answer: llama-server's default sampling, seeded,
     * under the turn's tool-call grammar when it has one.
     *
     * @throws NativeFailure {@link Status#GRAMMAR} when the grammar cannot be built
     */
    public Sampler sampler(Model model, int seed) throws NativeFailure {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            Text.Status status = Text.call(arena, (buffer, capacity, length) ->
                    aiillama_h.aiillama_sampler_new(live(), model.handle(), seed, out, buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp cannot build the sampler of the answer", status);
            }
            return new Sampler(out.get(ADDRESS, 0));
        }
    }

    private MemorySegment live() {
        if (closed) {
            throw new IllegalStateException("the turn is closed");
        }
        return turn;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            aiillama_h.aiillama_turn_free(turn);
            buffers.close();
        }
    }
}
