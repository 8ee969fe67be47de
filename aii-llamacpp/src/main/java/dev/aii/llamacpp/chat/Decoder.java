package dev.aii.llamacpp.chat;

import dev.aii.llamacpp.engine.Context;
import dev.aii.llamacpp.engine.Model;
import dev.aii.llamacpp.engine.NativeFailure;
import dev.aii.llamacpp.engine.Sampler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BooleanSupplier;

/**
 * The tokens of one answer, sampled and decoded on a thread of their own
 * while the answering thread parses and shows what came before, as
 * llama-server samples in its slot while its HTTP threads parse: parsing the
 * whole answer again after every token would otherwise hold up the next one.
 * The thread ends at an end-of-generation token, a full context, a failure,
 * {@link #enough()} or a cancel; the last item it queues says which.
 */
final class Decoder {

    /** The last item of the queue: how the tokens ended. */
    record End(Optional<Throwable> failure, boolean contextFull) {
    }

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean enough;

    private Decoder(KvCache cache, Sampler sampler, BooleanSupplier cancelled) {
        thread = Thread.ofPlatform().name("aii-llamacpp-decoder").daemon().unstarted(() -> run(cache, sampler, cancelled));
    }

    /** Starts sampling after what {@code cache} holds (the prompt, prefilled). */
    static Decoder start(KvCache cache, Sampler sampler, BooleanSupplier cancelled) {
        Decoder decoder = new Decoder(cache, sampler, cancelled);
        decoder.thread.start();
        return decoder;
    }

    private void run(KvCache cache, Sampler sampler, BooleanSupplier cancelled) {
        Context context = cache.context();
        Model model = context.model();
        Optional<Throwable> failure = Optional.empty();
        boolean full = false;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scratch = arena.allocate(256);
            while (!cancelled.getAsBoolean() && !enough) {
                if (cache.size() >= context.size()) {
                    full = true;
                    break;
                }
                int token = sampler.next(context);
                if (model.endsGeneration(token)) {
                    break;
                }
                queue.add(model.piece(token, arena, scratch));
                cache.append(token);
            }
        } catch (NativeFailure | RuntimeException | Error e) {
            failure = Optional.of(e);
        }
        queue.add(new End(failure, full));
    }

    /** The next piece of text (bytes), or the {@link End}. */
    Object next() throws InterruptedException {
        return queue.take();
    }

    /** The answer has what it needs (a stop string came): no more tokens. */
    void enough() {
        enough = true;
    }

    /** Waits for the thread to end (after {@link #enough()} or a cancel, at the next token). */
    void join() {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
