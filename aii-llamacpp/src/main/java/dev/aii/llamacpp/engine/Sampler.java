package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The sampler of one answer ({@code common_sampler}), its grammar included. */
public final class Sampler implements AutoCloseable {

    private final MemorySegment sampler;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment token = arena.allocate(JAVA_INT);
    private boolean closed;

    Sampler(MemorySegment sampler) {
        this.sampler = sampler;
    }

    /**
     * The next token from the context's last logits, accepted by the sampler.
     *
     * @throws NativeFailure {@link Status#GRAMMAR} when the grammar accepts no token the model gives
     */
    public int next(Context context) throws NativeFailure {
        if (closed) {
            throw new IllegalStateException("the sampler is closed");
        }
        try (Arena call = Arena.ofConfined()) {
            Text.Status status = Text.call(call, (buffer, capacity, length) ->
                    aiillama_h.aiillama_sampler_next(sampler, context.handle(), token, buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp failed to sample the next token", status);
            }
            return token.get(JAVA_INT, 0);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            aiillama_h.aiillama_sampler_free(sampler);
            arena.close();
        }
    }
}
