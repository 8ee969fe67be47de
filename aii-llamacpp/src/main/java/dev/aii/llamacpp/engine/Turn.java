package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** One rendered conversation: the prompt, its stop strings, and the parser of the answer. */
public final class Turn implements AutoCloseable {

    private final MemorySegment turn;
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
     * The answer so far as a JSON chat message ({@code content}, {@code tool_calls}).
     *
     * @param partial whether the answer may still grow (a tool call may be half written)
     * @throws NativeFailure {@link Status#PARSE} when the answer does not parse
     */
    public String parse(String text, boolean partial) throws NativeFailure {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = Text.utf8(arena, text);
            long n = Text.length(text);
            Text.Status status = Text.call(arena, (buffer, capacity, length) ->
                    aiillama_h.aiillama_turn_parse(live(), bytes, n, partial ? 1 : 0, buffer, capacity, length));
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
        }
    }
}
