package dev.aii.testkit.gguf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A constructed llama model whose every answer is fixed in advance. It has
 * one layer, F32 weights and no trained parameters:
 *
 * <ul>
 * <li>the vocabulary is GPT-2's 256 byte tokens, the chat control tokens,
 *     the Hermes tool tags and the answer tokens of {@link Script};</li>
 * <li>each token's embedding is one dimension of its own plus a constant
 *     "bias" dimension (or, for vocabularies larger than the width, a seeded
 *     random ±1 vector);</li>
 * <li>the output matrix is a bigram table: the row of each answer token
 *     points at the token before it, so every token fixes the next one, by a
 *     logit gap of more than 10 at any temperature;</li>
 * <li>two attention heads look, from every position, for {@code <tools>}
 *     and {@code <tool_response>} anywhere before it and raise a flag
 *     dimension when they find one. The flags steer the token after the LF
 *     that ends {@code <|im_start|>assistant\n}: no tools → the plain answer;
 *     tools → the tool call; tools and a tool result → the closing answer.</li>
 * </ul>
 *
 * Rotary embeddings would make the heads depend on positions; the heads use
 * only the last dimensions of each head, which a frequency base of 1e9
 * leaves practically unrotated over any context used here.
 */
public final class TinyModel {

    public static final int HEAD_DIM = 64;
    private static final int BIAS = 0;
    private static final int FLAG_TOOLS = 1;
    private static final int FLAG_RESPONSE = 2;
    private static final int FIRST_TOKEN_DIM = 8;
    /** Weight of a bigram entry: the successor's logit is this times the normalised activation (≥ 8.9). */
    private static final float BIGRAM = 8f;
    /** How strongly a flag moves the choice of the first answer token. */
    private static final float STEER = 4f;

    public static final String ENDOFTEXT = "<|endoftext|>";
    public static final String IM_START = "<|im_start|>";
    public static final String IM_END = "<|im_end|>";
    public static final String TOOLS = "<tools>";
    public static final String TOOL_RESPONSE = "<tool_response>";
    private static final List<String> CONTROL = List.of(ENDOFTEXT, IM_START, IM_END);
    private static final List<String> USER_DEFINED = List.of("<tool_call>", "</tool_call>", TOOL_RESPONSE,
            "</tool_response>", TOOLS, "</tools>");

    private static final int NORMAL = 1;
    private static final int TYPE_CONTROL = 3;
    private static final int TYPE_USER_DEFINED = 4;

    /**
     * What the model says. Each branch is a list of token texts (plain text,
     * or one of the tag tokens); after its last token comes {@code <|im_end|>},
     * unless {@code loops} is set: then the plain branch's last token is
     * followed by its first again, forever.
     *
     * @param close the branch after a tool result; the call branch again makes a model that always calls
     * @param slowLoad merges to add that never apply: building their table makes llama-server take
     *     seconds to load the model, during which it answers 503 {@code Loading model}
     */
    public record Script(String name, List<String> plain, List<String> call, List<String> close, boolean loops,
            int slowLoad) {

        public Script(String name, List<String> plain, List<String> call, List<String> close, boolean loops) {
            this(name, plain, call, close, loops, 0);
        }

        public Script {
            plain = List.copyOf(plain);
            call = List.copyOf(call);
            close = List.copyOf(close);
            if (plain.isEmpty() || call.isEmpty() || close.isEmpty()) {
                throw new IllegalArgumentException(name + ": every branch needs a token");
            }
        }
    }

    private final Script script;
    private final List<String> tokens = new ArrayList<>();
    private final List<Integer> types = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final Map<Integer, Integer> successor = new LinkedHashMap<>();
    private final int vocab;
    private final int embd;
    private final boolean oneHot;
    private final float[][] embeddings;

    public TinyModel(Script script) {
        this.script = script;
        for (int b = 0; b < 256; b++) {
            add(ByteLevel.ofByte(b), NORMAL);
        }
        CONTROL.forEach(t -> add(t, TYPE_CONTROL));
        USER_DEFINED.forEach(t -> add(t, TYPE_USER_DEFINED));
        // The one merge of the vocabulary: llama.cpp wants the list, and its product must be a token.
        add("ĠĠ", NORMAL);
        for (List<String> branch : List.of(script.plain(), script.call(), script.close())) {
            for (String text : branch) {
                token(text);
            }
        }
        if (List.of(script.plain(), script.call(), script.close()).stream().anyMatch(b -> b.contains("\n"))) {
            throw new IllegalArgumentException(script.name() + ": a lone LF token is the branch point, not an answer token");
        }
        chain(script.plain(), script.loops());
        chain(script.call(), false);
        chain(script.close(), false);
        vocab = tokens.size();
        oneHot = FIRST_TOKEN_DIM + vocab <= 1024;
        embd = oneHot ? roundUp(FIRST_TOKEN_DIM + vocab, HEAD_DIM) : 320;
        embeddings = new float[vocab][];
        Random random = new Random(script.name().hashCode());
        for (int t = 0; t < vocab; t++) {
            float[] e = new float[embd];
            e[BIAS] = 1f;
            if (oneHot) {
                e[FIRST_TOKEN_DIM + t] = 1f;
            } else {
                for (int d = FIRST_TOKEN_DIM; d < embd; d++) {
                    e[d] = random.nextBoolean() ? 1f : -1f;
                }
            }
            embeddings[t] = e;
        }
    }

    /** The id of a tag or byte token by its text, or a new answer token. */
    private int token(String text) {
        Integer id = ids.get(text);
        if (id != null) {
            return id;
        }
        Integer existing = ids.get(ByteLevel.encode(text));
        return existing != null ? existing : add(ByteLevel.encode(text), NORMAL);
    }

    private int add(String text, int type) {
        if (ids.containsKey(text)) {
            throw new IllegalArgumentException("token " + text + " twice");
        }
        tokens.add(text);
        types.add(type);
        ids.put(text, tokens.size() - 1);
        return tokens.size() - 1;
    }

    private void chain(List<String> branch, boolean loops) {
        for (int i = 0; i < branch.size(); i++) {
            int from = token(branch.get(i));
            int to = i + 1 < branch.size() ? token(branch.get(i + 1)) : loops ? token(branch.getFirst()) : id(IM_END);
            Integer before = successor.putIfAbsent(from, to);
            if (before != null && before != to) {
                throw new IllegalArgumentException(script.name() + ": token " + branch.get(i)
                        + " would need two successors");
            }
        }
    }

    public int id(String text) {
        return ids.get(text);
    }

    public int vocabularySize() {
        return vocab;
    }

    public int width() {
        return embd;
    }

    /** The token after {@code token} when no flag is up, as the bigram table says. */
    public Integer successor(int token) {
        return successor.get(token);
    }

    public float[] embedding(int token) {
        return embeddings[token];
    }

    /** Writes the GGUF file, with {@code chatTemplate} as the model's chat template. */
    public void write(Path file, String chatTemplate) throws IOException {
        int heads = embd / HEAD_DIM;
        GgufWriter gguf = new GgufWriter()
                .put("general.architecture", "llama")
                .put("general.name", script.name())
                .put("general.file_type", new GgufWriter.U32(0))
                .put("llama.context_length", new GgufWriter.U32(32768))
                .put("llama.embedding_length", new GgufWriter.U32(embd))
                .put("llama.block_count", new GgufWriter.U32(1))
                .put("llama.feed_forward_length", new GgufWriter.U32(HEAD_DIM))
                .put("llama.attention.head_count", new GgufWriter.U32(heads))
                .put("llama.attention.head_count_kv", new GgufWriter.U32(heads))
                .put("llama.attention.layer_norm_rms_epsilon", 1e-5f)
                .put("llama.rope.freq_base", 1e9f)
                .put("llama.rope.dimension_count", new GgufWriter.U32(HEAD_DIM))
                .put("tokenizer.ggml.model", "gpt2")
                .put("tokenizer.ggml.pre", "qwen2")
                .put("tokenizer.ggml.tokens", List.copyOf(tokens))
                .put("tokenizer.ggml.token_type", List.copyOf(types))
                .put("tokenizer.ggml.merges", merges())
                .put("tokenizer.ggml.bos_token_id", new GgufWriter.U32(id(ENDOFTEXT)))
                .put("tokenizer.ggml.eos_token_id", new GgufWriter.U32(id(IM_END)))
                .put("tokenizer.ggml.padding_token_id", new GgufWriter.U32(id(ENDOFTEXT)))
                .put("tokenizer.ggml.add_bos_token", false)
                .put("tokenizer.chat_template", chatTemplate);
        float[] tokenEmbd = new float[vocab * embd];
        for (int t = 0; t < vocab; t++) {
            System.arraycopy(embeddings[t], 0, tokenEmbd, t * embd, embd);
        }
        gguf.tensor("token_embd.weight", tokenEmbd, embd, vocab);
        gguf.tensor("output_norm.weight", ones(embd), embd);
        gguf.tensor("output.weight", output(), embd, vocab);
        gguf.tensor("blk.0.attn_norm.weight", ones(embd), embd);
        float[][] attention = attention();
        gguf.tensor("blk.0.attn_q.weight", attention[0], embd, embd);
        gguf.tensor("blk.0.attn_k.weight", attention[1], embd, embd);
        gguf.tensor("blk.0.attn_v.weight", attention[2], embd, embd);
        gguf.tensor("blk.0.attn_output.weight", attention[3], embd, embd);
        gguf.tensor("blk.0.ffn_norm.weight", ones(embd), embd);
        gguf.tensor("blk.0.ffn_gate.weight", new float[embd * HEAD_DIM], embd, HEAD_DIM);
        gguf.tensor("blk.0.ffn_up.weight", new float[embd * HEAD_DIM], embd, HEAD_DIM);
        gguf.tensor("blk.0.ffn_down.weight", new float[HEAD_DIM * embd], HEAD_DIM, embd);
        gguf.write(file);
    }

    /**
     * The one real merge, then the idle ones of {@link Script#slowLoad}: pairs
     * of strings that are never symbols of any text (they start with
     * characters outside the byte alphabet), so tokenizing is unchanged.
     */
    private List<String> merges() {
        List<String> merges = new ArrayList<>(1 + script.slowLoad());
        merges.add("Ġ Ġ");
        for (int i = 0; i < script.slowLoad(); i++) {
            merges.add("\u01C4" + i + " \u01C5" + i);
        }
        return merges;
    }

    /**
     * Row {@code j} (the logits' weights for token j) holds the embedding of
     * the token that j follows, scaled; the first token of each branch
     * instead answers to the LF and the flags.
     */
    float[] output() {
        float[] out = new float[vocab * embd];
        float scale = oneHot ? BIGRAM : 0.1f;
        int newline = token("\n");
        int plain = token(script.plain().getFirst());
        int call = token(script.call().getFirst());
        int close = token(script.close().getFirst());
        for (Map.Entry<Integer, Integer> e : successor.entrySet()) {
            int from = e.getKey();
            int to = e.getValue();
            float[] source = embeddings[from];
            for (int d = FIRST_TOKEN_DIM; d < embd; d++) {
                out[to * embd + d] += scale * source[d];
            }
        }
        float[] lf = embeddings[newline];
        for (int d = FIRST_TOKEN_DIM; d < embd; d++) {
            out[plain * embd + d] += scale * lf[d];
        }
        if (!oneHot) {
            return out;     // no heads, no flags: a wide vocabulary answers plainly
        }
        for (int d = FIRST_TOKEN_DIM; d < embd; d++) {
            if (call != plain) {
                out[call * embd + d] += (scale - STEER / 2) * lf[d];
            }
            if (close != call && close != plain) {
                out[close * embd + d] += (scale - STEER / 2) * lf[d];
            }
        }
        if (call != plain) {
            out[call * embd + FLAG_TOOLS] += STEER;
            if (close != call) {
                out[call * embd + FLAG_RESPONSE] -= STEER;
            }
        }
        if (close != call && close != plain) {
            out[close * embd + FLAG_RESPONSE] += STEER;
        }
        return out;
    }

    /**
     * Q, K, V and the output projection. Head 0 finds {@code <tools>} and
     * raises the tools flag, head 1 finds {@code <tool_response>} and raises
     * the response flag; the other heads are zero. The query comes from the
     * bias dimension, so every position asks; only the marker has a key.
     */
    float[][] attention() {
        float[] q = new float[embd * embd];
        float[] k = new float[embd * embd];
        float[] v = new float[embd * embd];
        float[] o = new float[embd * embd];
        if (oneHot) {
            head(0, id(TOOLS), FLAG_TOOLS, q, k, v, o);
            head(1, id(TOOL_RESPONSE), FLAG_RESPONSE, q, k, v, o);
        }
        return new float[][] {q, k, v, o};
    }

    private void head(int head, int marker, int flag, float[] q, float[] k, float[] v, float[] o) {
        int base = head * HEAD_DIM;
        int signal = base + HEAD_DIM - 2;   // the last pair of the head: rotated by pos * 1e9^(-62/64), about nothing
        q[signal * embd + BIAS] = 1.5f;
        k[signal * embd + FIRST_TOKEN_DIM + marker] = 1.5f;
        v[base * embd + FIRST_TOKEN_DIM + marker] = 1f;
        // A normalised one-hot activation is sqrt(n_embd / 2); the flag should come out near 1.
        o[flag * embd + base] = (float) (1 / Math.sqrt(embd / 2.0));
    }

    private static float[] ones(int n) {
        float[] a = new float[n];
        java.util.Arrays.fill(a, 1f);
        return a;
    }

    private static int roundUp(int n, int m) {
        return (n + m - 1) / m * m;
    }
}
