package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.aii.llamacpp.bindings.aiillama_h;
import java.lang.foreign.MemorySegment;

/** The sampler of one answer ({@code common_sampler}), its grammar included. */
public final class Sampler implements AutoCloseable {

    private final MemorySegment sampler;
    private final Buffers buffers = new Buffers();
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
        int code = aiillama_h.aiillama_sampler_next(sampler, context.handle(), buffers.token(), buffers.out(),
                buffers.outCapacity(), buffers.length());
        if (code != aiillama_h.AIILLAMA_OK()) {
            throw NativeFailure.shim("llama.cpp failed to sample the next token",
                    new Text.Status(code, buffers.text().orElse("(a longer message)")));
        }
        return buffers.token().get(JAVA_INT, 0);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            aiillama_h.aiillama_sampler_free(sampler);
            buffers.close();
        }
    }
}
