package dev.aii.llamacpp.chat;

import dev.aii.llamacpp.engine.Context;
import dev.aii.llamacpp.engine.Model;
import dev.aii.llamacpp.engine.NativeFailure;
import dev.aii.llamacpp.engine.Sampler;
import dev.aii.llamacpp.engine.Status;
import dev.aii.llamacpp.engine.Turn;
import dev.aii.model.ModelException;
import dev.aii.model.TextSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * One answer of the model to a rendered turn: the prompt decoded after what
 * the KV cache already holds, then token by token (by a {@link Decoder})
 * until an end-of-generation token, a stop string, a full context or a cancel. The text goes to the sink
 * as the shim parses it, so the text of a tool call is never shown; as
 * llama-server does, the shim parses the answer again after every token.
 */
final class Generation {

    private final KvCache cache;
    private final List<String> extraStops;

    Generation(KvCache cache, List<String> extraStops) {
        this.cache = cache;
        this.extraStops = List.copyOf(extraStops);
    }

    /** The parsed answer, or empty when {@code cancelled} said so before it ended. */
    Optional<Json.Parsed> run(Turn turn, TextSink sink, BooleanSupplier cancelled) throws ModelException {
        Context context = cache.context();
        Model model = context.model();
        List<Integer> prompt = model.tokenize(turn.prompt(), true);
        if (prompt.size() >= context.size()) {
            throw ModelException.contextExceeded(context.size(), "the prompt is " + prompt.size()
                    + " tokens in a context of " + context.size());
        }
        List<String> stops = new ArrayList<>(Json.strings(turn.stopsJson()));
        stops.addAll(extraStops);
        try (Sampler sampler = turn.sampler(model, ThreadLocalRandom.current().nextInt())) {
            cache.prefill(prompt);
            Decoder decoder = Decoder.start(cache, sampler, cancelled);
            try {
                return answer(turn, decoder, stops, sink, cancelled, context.size());
            } finally {
                decoder.enough();
                decoder.join();
            }
        } catch (NativeFailure e) {
            if (e.status() == Status.STOPPED && cancelled.getAsBoolean()) {
                return Optional.empty();
            }
            throw failed(e, context.size());
        }
    }

    /** Takes the decoder's pieces, ends them at a stop string, and shows what the parse says they add. */
    private static Optional<Json.Parsed> answer(Turn turn, Decoder decoder, List<String> stops, TextSink sink,
            BooleanSupplier cancelled, int contextSize) throws ModelException, NativeFailure {
        Pieces pieces = new Pieces();
        StringBuilder shown = new StringBuilder();
        int longestStop = stops.stream().mapToInt(String::length).max().orElse(0);
        while (true) {
            Object item;
            try {
                item = decoder.next();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            if (item instanceof Decoder.End end) {
                if (cancelled.getAsBoolean()) {
                    return Optional.empty();
                }
                if (end.failure().isPresent()) {
                    throw rethrow(end.failure().get());
                }
                if (end.contextFull()) {
                    throw ModelException.contextExceeded(contextSize, "the context filled up with "
                            + contextSize + " tokens while the model answered");
                }
                break;
            }
            int before = pieces.length();
            String added = pieces.add((byte[]) item);
            int from = Math.max(0, before - longestStop);
            int stop = longestStop == 0 ? -1 : firstStop(pieces.from(from), stops);
            if (stop >= 0) {
                // The stop string and what follows it are not the answer's.
                decoder.enough();
                added = from + stop > before ? added.substring(0, from + stop - before) : "";
            }
            show(turn.feed(added), shown, sink);
            if (stop >= 0) {
                break;
            }
        }
        if (cancelled.getAsBoolean()) {
            return Optional.empty();
        }
        Json.Parsed parsed = Json.parsed(turn.finish());
        if (parsed.content().startsWith(shown.toString())) {
            show(parsed.content().substring(shown.length()), shown, sink);
        }
        return Optional.of(parsed);
    }

    private static NativeFailure rethrow(Throwable failure) {
        if (failure instanceof NativeFailure native_) {
            return native_;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        throw (Error) failure;
    }

    private static void show(String added, StringBuilder shown, TextSink sink) {
        if (!added.isEmpty()) {
            shown.append(added);
            sink.accept(added);
        }
    }

    private static int firstStop(String text, List<String> stops) {
        int first = -1;
        for (String stop : stops) {
            int at = stop.isEmpty() ? -1 : text.indexOf(stop);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    /** What a failure of llama.cpp while answering is for aii. */
    static ModelException failed(NativeFailure e, int contextSize) {
        if (e.status() == Status.CONTEXT_FULL) {
            return ModelException.contextExceeded(contextSize, e.detail());
        }
        return new ModelException(dev.aii.model.ErrorCode.SERVER_ERROR, "llama.cpp failed while answering: "
                + e.getMessage(), e.detail().isEmpty() ? e.getMessage() : e.detail(), e);
    }
}
