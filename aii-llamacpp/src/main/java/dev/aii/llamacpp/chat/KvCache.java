package dev.aii.llamacpp.chat;

import dev.aii.llamacpp.engine.Context;
import dev.aii.llamacpp.engine.NativeFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The tokens in the context's one sequence, so that a prompt that starts
 * as the last one did (the next turn of a conversation, or a new one with the
 * same instructions) decodes only what is new, as llama-server's prompt cache
 * does. One answer at a time: {@link #lock()} is held while one runs.
 */
public final class KvCache {

    private final Context context;
    private final List<Integer> tokens = new ArrayList<>();
    private final ReentrantLock answering = new ReentrantLock();
    private int reused;

    public KvCache(Context context) {
        this.context = context;
    }

    Context context() {
        return context;
    }

    ReentrantLock lock() {
        return answering;
    }

    /** How many tokens the sequence holds. */
    int size() {
        return tokens.size();
    }

    /**
     * Makes the sequence hold {@code prompt}, decoding only what follows the
     * longest prefix it already holds (at least the last token, whose logits
     * the sampler needs).
     *
     * @return how many of the prompt's tokens were already there
     * @throws NativeFailure when decoding fails or is stopped; the sequence then holds the kept prefix
     */
    int prefill(List<Integer> prompt) throws NativeFailure {
        int keep = 0;
        int limit = Math.min(tokens.size(), prompt.size() - 1);
        while (keep < limit && tokens.get(keep).equals(prompt.get(keep))) {
            keep++;
        }
        drop(keep);
        try {
            context.decode(prompt.subList(tokens.size(), prompt.size()));
        } catch (NativeFailure e) {
            drop(tokens.size());
            throw e;
        }
        tokens.addAll(prompt.subList(tokens.size(), prompt.size()));
        reused = keep;
        return keep;
    }

    /** How many tokens of the last prompt were in the cache already, not decoded again. */
    int reused() {
        return reused;
    }

    /** Decodes one sampled token after the sequence. */
    void append(int token) throws NativeFailure {
        try {
            context.decode(List.of(token));
        } catch (NativeFailure e) {
            drop(tokens.size());
            throw e;
        }
        tokens.add(token);
    }

    /** Keeps the first {@code keep} tokens (or none, where llama.cpp cannot keep part of the sequence). */
    private void drop(int keep) {
        if (!context.truncate(keep)) {
            keep = 0;
        }
        tokens.subList(keep, tokens.size()).clear();
    }
}
