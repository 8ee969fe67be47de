package dev.aii.bench;

import dev.aii.testkit.gguf.ByteLevel;
import dev.aii.testkit.gguf.GgufWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a llama model of about 0.4 billion parameters with seeded random
 * weights, in F16, for the in-process benchmark (bench/run.sh quantizes it to
 * Q4_K_M with llama.cpp's own quantizer): 24 layers, 1,024 dimensions, 16
 * heads, a feed-forward width of 2,816, a vocabulary of 32,000 (GPT-2's 256
 * byte tokens, ChatML's control tokens, the rest filler). Random weights make
 * random text, which never ends by itself: the benchmark's context ends it.
 *
 * <pre>java -cp ... dev.aii.bench.RandomLlama OUT.gguf TEMPLATE.jinja</pre>
 */
public final class RandomLlama {

    private static final int EMBD = 1024;
    private static final int LAYERS = 24;
    private static final int HEADS = 16;
    private static final int FF = 2816;
    private static final int VOCAB = 32000;
    private static final int F16 = 1;

    private RandomLlama() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        String template = Files.readString(Path.of(args[1]));
        List<String> tokens = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        for (int b = 0; b < 256; b++) {
            tokens.add(ByteLevel.ofByte(b));
            types.add(1);
        }
        for (String control : List.of("<|endoftext|>", "<|im_start|>", "<|im_end|>")) {
            tokens.add(control);
            types.add(3);
        }
        tokens.add("\u0120\u0120");
        types.add(1);
        for (int i = tokens.size(); i < VOCAB; i++) {
            tokens.add(ByteLevel.encode(" w" + i));
            types.add(1);
        }
        GgufWriter gguf = new GgufWriter()
                .put("general.architecture", "llama")
                .put("general.name", "random-0.4b")
                .put("general.file_type", new GgufWriter.U32(1))
                .put("llama.context_length", new GgufWriter.U32(4096))
                .put("llama.embedding_length", new GgufWriter.U32(EMBD))
                .put("llama.block_count", new GgufWriter.U32(LAYERS))
                .put("llama.feed_forward_length", new GgufWriter.U32(FF))
                .put("llama.attention.head_count", new GgufWriter.U32(HEADS))
                .put("llama.attention.head_count_kv", new GgufWriter.U32(HEADS))
                .put("llama.attention.layer_norm_rms_epsilon", 1e-5f)
                .put("llama.rope.freq_base", 10000f)
                .put("llama.rope.dimension_count", new GgufWriter.U32(EMBD / HEADS))
                .put("tokenizer.ggml.model", "gpt2")
                .put("tokenizer.ggml.pre", "qwen2")
                .put("tokenizer.ggml.tokens", tokens)
                .put("tokenizer.ggml.token_type", types)
                .put("tokenizer.ggml.merges", List.of("\u0120 \u0120"))
                .put("tokenizer.ggml.bos_token_id", new GgufWriter.U32(256))
                .put("tokenizer.ggml.eos_token_id", new GgufWriter.U32(258))
                .put("tokenizer.ggml.padding_token_id", new GgufWriter.U32(256))
                .put("tokenizer.ggml.add_bos_token", false)
                .put("tokenizer.chat_template", template);
        long[] seed = {0x9E3779B97F4A7C15L};
        random(gguf, "token_embd.weight", seed, EMBD, VOCAB);
        ones(gguf, "output_norm.weight", EMBD);
        random(gguf, "output.weight", seed, EMBD, VOCAB);
        for (int l = 0; l < LAYERS; l++) {
            String p = "blk." + l + ".";
            ones(gguf, p + "attn_norm.weight", EMBD);
            for (String w : List.of("attn_q", "attn_k", "attn_v", "attn_output")) {
                random(gguf, p + w + ".weight", seed, EMBD, EMBD);
            }
            ones(gguf, p + "ffn_norm.weight", EMBD);
            random(gguf, p + "ffn_gate.weight", seed, EMBD, FF);
            random(gguf, p + "ffn_up.weight", seed, EMBD, FF);
            random(gguf, p + "ffn_down.weight", seed, FF, EMBD);
        }
        gguf.write(out);
    }

    private static void ones(GgufWriter gguf, String name, int n) {
        float[] one = new float[n];
        Arrays.fill(one, 1f);
        gguf.tensor(name, one, n);
    }

    /** An F16 tensor of uniform values in ±0.035 (a standard deviation of 0.02), from a running xorshift. */
    private static void random(GgufWriter gguf, String name, long[] state, long inner, long outer) {
        long count = inner * outer;
        gguf.streamedTensor(name, F16, 2 * count, out -> write(out, state, count), inner, outer);
    }

    private static void write(OutputStream out, long[] state, long count) throws IOException {
        byte[] chunk = new byte[1 << 16];
        long left = count;
        long x = state[0];
        while (left > 0) {
            int n = (int) Math.min(chunk.length / 2, left);
            for (int i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                float v = ((x >>> 40) / (float) (1 << 24) - 0.5f) * 0.07f;
                short h = Float.floatToFloat16(v);
                chunk[2 * i] = (byte) h;
                chunk[2 * i + 1] = (byte) (h >>> 8);
            }
            out.write(chunk, 0, 2 * n);
            left -= n;
        }
        state[0] = x;
    }
}
