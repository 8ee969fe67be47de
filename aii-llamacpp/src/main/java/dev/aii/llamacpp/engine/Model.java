package dev.aii.llamacpp.engine;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.aii.llamacpp.bindings.aiillama_h;
import dev.aii.llamacpp.bindings.llama_h;
import dev.aii.llamacpp.bindings.llama_model_params;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A loaded GGUF model ({@code llama_model}), memory-mapped as llama.cpp does
 * by default, and its vocabulary. Closing frees it; contexts borrow it.
 */
public final class Model implements AutoCloseable {

    private static final byte[] MAGIC = "GGUF".getBytes(StandardCharsets.US_ASCII);

    private final MemorySegment model;
    private final MemorySegment vocab;
    private final Path file;
    private boolean closed;

    private Model(MemorySegment model, Path file) {
        this.model = model;
        this.vocab = llama_h.llama_model_get_vocab(model);
        this.file = file;
    }

    /**
     * Loads {@code file} on the CPU (and Metal, where ggml has it).
     *
     * @throws NativeFailure {@link Status#NOT_GGUF} when the file does not start as GGUF does,
     *     {@link Status#MODEL_LOAD} with llama.cpp's logged reason when llama.cpp cannot load it
     */
    public static Model load(Path file) throws NativeFailure {
        checkMagic(file);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment params = llama_h.llama_model_default_params(arena);
            llama_model_params.n_gpu_layers(params, -1);
            MemorySegment path = Text.cString(arena, file.toString(), "the model's path");
            aiillama_h.aiillama_log_clear();
            MemorySegment model = llama_h.llama_model_load_from_file(path, params);
            if (model.address() == 0) {
                throw new NativeFailure(Status.MODEL_LOAD, "llama.cpp cannot load " + file, logErrors());
            }
            return new Model(model, file);
        }
    }

    private static void checkMagic(Path file) throws NativeFailure {
        byte[] head = new byte[MAGIC.length];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new NativeFailure(Status.MODEL_LOAD, "Cannot read " + file, String.valueOf(e.getMessage()));
        }
        if (n < MAGIC.length || !Arrays.equals(head, MAGIC)) {
            throw new NativeFailure(Status.NOT_GGUF, file + " is not a GGUF file",
                    "the file starts with " + hex(head, n) + ", not \"GGUF\"");
        }
    }

    private static String hex(byte[] bytes, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(String.format("%02x", bytes[i] & 0xFF));
        }
        return n == 0 ? "nothing (an empty file)" : s.toString();
    }

    /** The error lines llama.cpp logged since they were last cleared. */
    static String logErrors() {
        try (Arena arena = Arena.ofConfined()) {
            return Text.fill(arena, (buffer, capacity, length) -> {
                aiillama_h.aiillama_log_errors(buffer, capacity, length);
                return 0;
            });
        }
    }

    public Path file() {
        return file;
    }

    /** The context the model was trained with. */
    public int trainedContext() {
        return llama_h.llama_model_n_ctx_train(live());
    }

    /** llama.cpp's one-line description: architecture, size and quantisation, e.g. {@code llama 8B Q4_K - Medium}. */
    public String description() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(256);
            int n = llama_h.llama_model_desc(live(), buffer, 256);
            return n <= 0 ? "" : buffer.getString(0, StandardCharsets.UTF_8);
        }
    }

    /** A metadata value of the GGUF file, e.g. {@code general.name}. */
    public Optional<String> metadata(String key) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment k = Text.cString(arena, key, "a metadata key");
            int n = llama_h.llama_model_meta_val_str(live(), k, MemorySegment.NULL, 0);
            if (n < 0) {
                return Optional.empty();
            }
            MemorySegment buffer = arena.allocate(n + 1L);
            llama_h.llama_model_meta_val_str(live(), k, buffer, n + 1L);
            return Optional.of(buffer.getString(0, StandardCharsets.UTF_8));
        }
    }

    /**
     * The tokens of {@code text}, special tokens (the template's markers)
     * parsed as such; with {@code addSpecial} also the BOS (or EOS) the model
     * wants around a prompt, which llama.cpp's templates leave out of the
     * rendered text for the tokenizer to add, as llama-server tokenizes.
     */
    public List<Integer> tokenize(String text, boolean addSpecial) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = Text.utf8(arena, text);
            int length = Math.toIntExact(Text.length(text));
            int capacity = length + 16;
            MemorySegment tokens = arena.allocate(JAVA_INT, capacity);
            int n = llama_h.llama_tokenize(vocab(), bytes, length, tokens, capacity, addSpecial, true);
            if (n < 0) {
                capacity = -n;
                tokens = arena.allocate(JAVA_INT, capacity);
                n = llama_h.llama_tokenize(vocab(), bytes, length, tokens, capacity, addSpecial, true);
            }
            if (n < 0) {
                throw new IllegalStateException("llama_tokenize gave " + n + " for " + length + " bytes");
            }
            List<Integer> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(tokens.getAtIndex(JAVA_INT, i));
            }
            return out;
        }
    }

    /** The bytes {@code token} stands for; control tokens give none. */
    public byte[] piece(int token, Arena arena, MemorySegment scratch) {
        int n = llama_h.llama_token_to_piece(vocab(), token, scratch, (int) scratch.byteSize(), 0, false);
        if (n < 0) {
            MemorySegment bigger = arena.allocate(-n);
            n = llama_h.llama_token_to_piece(vocab(), token, bigger, -n, 0, false);
            return bigger.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
        return scratch.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** Whether {@code token} ends generation (end of turn, end of text). */
    public boolean endsGeneration(int token) {
        return llama_h.llama_vocab_is_eog(vocab(), token);
    }

    MemorySegment handle() {
        return live();
    }

    private MemorySegment vocab() {
        live();
        return vocab;
    }

    private MemorySegment live() {
        if (closed) {
            throw new IllegalStateException("the model is closed");
        }
        return model;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            llama_h.llama_model_free(model);
        }
    }
}
