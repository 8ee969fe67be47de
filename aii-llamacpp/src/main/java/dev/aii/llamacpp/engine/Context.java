package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.aii.llamacpp.bindings.aiillama_h;
import dev.aii.llamacpp.bindings.llama_context_params;
import dev.aii.llamacpp.bindings.llama_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A {@code llama_context} of a model: its KV cache, the one sequence aii
 * decodes into, and the stop flag that ends a decode from another thread
 * (through llama.cpp's abort callback, checked between ggml's graph nodes).
 */
public final class Context implements AutoCloseable {

    private final Model model;
    private final MemorySegment context;
    private final MemorySegment memory;
    private final MemorySegment stop;
    private final int size;
    private final int batch;
    private final Buffers buffers = new Buffers();
    private boolean closed;

    private Context(Model model, MemorySegment context, MemorySegment stop) {
        this.model = model;
        this.context = context;
        this.memory = llama_h.llama_get_memory(context);
        this.stop = stop;
        this.size = llama_h.llama_n_ctx(context);
        this.batch = llama_h.llama_n_batch(context);
    }

    /**
     * A context of {@code tokens} for {@code model}, computed with {@code threads} threads.
     *
     * @throws NativeFailure {@link Status#CONTEXT_INIT} with llama.cpp's reason (too little memory, mostly)
     */
    public static Context create(Model model, int tokens, int threads) throws NativeFailure {
        MemorySegment stop = aiillama_h.aiillama_stop_new();
        if (stop.address() == 0) {
            throw new NativeFailure(Status.CONTEXT_INIT, "Cannot make the stop flag of a context", "");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = llama_h.llama_context_default_params(arena);
            llama_context_params.n_ctx(params, tokens);
            llama_context_params.n_threads(params, threads);
            llama_context_params.n_threads_batch(params, threads);
            llama_context_params.abort_callback(params, aiillama_h.aiillama_stop_check$address());
            llama_context_params.abort_callback_data(params, stop);
            llama_context_params.no_perf(params, true);
            aiillama_h.aiillama_log_clear();
            MemorySegment context = llama_h.llama_init_from_model(model.handle(), params);
            if (context.address() == 0) {
                aiillama_h.aiillama_stop_free(stop);
                throw new NativeFailure(Status.CONTEXT_INIT, "llama.cpp cannot make a context of " + tokens
                        + " tokens", Model.logErrors());
            }
            return new Context(model, context, stop);
        }
    }

    public Model model() {
        return model;
    }

    /** The context window in tokens. */
    public int size() {
        return size;
    }

    /**
     * Decodes {@code tokens} after what the sequence holds, keeping the last
     * one's logits for the sampler.
     *
     * @throws NativeFailure {@link Status#STOPPED} after {@link #stop}, {@link Status#CONTEXT_FULL},
     *     {@link Status#DECODE}; the sequence may then hold part of the tokens
     */
    public void decode(List<Integer> tokens) throws NativeFailure {
        if (tokens.isEmpty()) {
            return;
        }
        if (tokens.size() == 1) {
            decodeOne(tokens.getFirst());
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(JAVA_INT, tokens.size());
            for (int i = 0; i < tokens.size(); i++) {
                ids.setAtIndex(JAVA_INT, i, tokens.get(i));
            }
            Text.Status status = Text.call(arena, (buffer, capacity, length) -> aiillama_h.aiillama_decode(live(),
                    ids, tokens.size(), batch, buffer, capacity, length));
            if (status.code() != aiillama_h.AIILLAMA_OK()) {
                throw NativeFailure.shim("llama.cpp could not decode " + tokens.size() + " tokens", status);
            }
        }
    }

    /** {@link #decode} of one token, the call made once per token of an answer: no allocation. */
    private void decodeOne(int token) throws NativeFailure {
        buffers.token().set(JAVA_INT, 0, token);
        int code = aiillama_h.aiillama_decode(live(), buffers.token(), 1, batch, buffers.out(), buffers.outCapacity(),
                buffers.length());
        if (code != aiillama_h.AIILLAMA_OK()) {
            throw NativeFailure.shim("llama.cpp could not decode 1 token",
                    new Text.Status(code, buffers.text().orElse("(a longer message)")));
        }
    }

    /**
     * Drops the sequence's tokens from position {@code from} on; when llama.cpp
     * cannot drop part of it (recurrent models), drops all of it.
     *
     * @return whether the tokens before {@code from} are still there
     */
    public boolean truncate(int from) {
        if (llama_h.llama_memory_seq_rm(memory, 0, from, -1)) {
            return true;
        }
        llama_h.llama_memory_seq_rm(memory, 0, -1, -1);
        return false;
    }

    /** Raises or lowers the stop flag; any thread, also after close (then it does nothing). */
    public synchronized void stop(boolean raised) {
        if (!closed) {
            aiillama_h.aiillama_stop_set(stop, raised ? 1 : 0);
        }
    }

    MemorySegment handle() {
        return live();
    }

    private MemorySegment live() {
        if (closed) {
            throw new IllegalStateException("the context is closed");
        }
        return context;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            llama_h.llama_free(context);
            aiillama_h.aiillama_stop_free(stop);
            buffers.close();
        }
    }
}
