package dev.aii.testkit.gguf;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a GGUF file, version 3, as llama.cpp reads it: the magic
 * {@code GGUF}, the version, the counts, the metadata (key, type, value),
 * the tensor descriptions (name, dimensions innermost first, type, offset)
 * and the tensor data, each tensor aligned to 32 bytes. Little-endian
 * throughout; only the value types the test models use, F32 tensors, and
 * raw tensors of any type id (for files llama.cpp must refuse).
 */
public final class GgufWriter {

    private static final int ALIGNMENT = 32;
    private static final int UINT32 = 4;
    private static final int INT32 = 5;
    private static final int FLOAT32 = 6;
    private static final int BOOL = 7;
    private static final int STRING = 8;
    private static final int ARRAY = 9;
    private static final int TENSOR_F32 = 0;

    /** Writes a tensor's bytes when the file is written, so that a large model need not be held in memory. */
    @FunctionalInterface
    public interface Bytes {
        void writeTo(OutputStream out) throws IOException;
    }

    /** A tensor: its dimensions, its ggml type, and its bytes (size of them, and what writes them). */
    private record Tensor(String name, long[] dims, int type, long size, Bytes bytes) {
    }

    private final Map<String, Object> metadata = new LinkedHashMap<>();
    private final List<Tensor> tensors = new ArrayList<>();

    /** An unsigned 32-bit value (the type llama.cpp wants for counts and token ids). */
    public record U32(long value) {
    }

    public GgufWriter put(String key, Object value) {
        metadata.put(key, value);
        return this;
    }

    /** A tensor of {@code dims} (innermost first, as ggml's {@code ne}), its values in that order. */
    public GgufWriter tensor(String name, float[] data, long... dims) {
        long n = 1;
        for (long d : dims) {
            n *= d;
        }
        if (n != data.length) {
            throw new IllegalArgumentException(name + ": " + data.length + " values for dimensions of " + n);
        }
        ByteBuffer bytes = ByteBuffer.allocate(4 * data.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(data);
        return rawTensor(name, TENSOR_F32, bytes.array(), dims);
    }

    /** A tensor of any ggml {@code type} id (even one ggml does not know), its bytes as given. */
    public GgufWriter rawTensor(String name, int type, byte[] bytes, long... dims) {
        byte[] copy = bytes.clone();
        return streamedTensor(name, type, copy.length, out -> out.write(copy), dims);
    }

    /** A tensor of ggml {@code type} whose {@code size} bytes {@code bytes} writes when the file is written. */
    public GgufWriter streamedTensor(String name, int type, long size, Bytes bytes, long... dims) {
        tensors.add(new Tensor(name, dims.clone(), type, size, bytes));
        return this;
    }

    public void write(Path file) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".part");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16)) {
            Sink sink = new Sink(out);
            sink.raw("GGUF".getBytes(StandardCharsets.US_ASCII));
            sink.u32(3);
            sink.u64(tensors.size());
            sink.u64(metadata.size());
            for (Map.Entry<String, Object> e : metadata.entrySet()) {
                sink.string(e.getKey());
                value(sink, e.getValue(), true);
            }
            long offset = 0;
            for (Tensor t : tensors) {
                sink.string(t.name());
                sink.u32(t.dims().length);
                for (long d : t.dims()) {
                    sink.u64(d);
                }
                sink.u32(t.type());
                sink.u64(offset);
                offset = align(offset + t.size());
            }
            sink.pad();
            for (Tensor t : tensors) {
                sink.tensor(t);
                sink.pad();
            }
        }
        Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void value(Sink sink, Object v, boolean typed) throws IOException {
        switch (v) {
            case String s -> {
                if (typed) {
                    sink.u32(STRING);
                }
                sink.string(s);
            }
            case U32 u -> {
                if (typed) {
                    sink.u32(UINT32);
                }
                sink.u32(u.value());
            }
            case Integer i -> {
                if (typed) {
                    sink.u32(INT32);
                }
                sink.u32(i);
            }
            case Float f -> {
                if (typed) {
                    sink.u32(FLOAT32);
                }
                sink.u32(Float.floatToRawIntBits(f));
            }
            case Boolean b -> {
                if (typed) {
                    sink.u32(BOOL);
                }
                sink.raw(new byte[] {(byte) (b ? 1 : 0)});
            }
            case List<?> list -> {
                sink.u32(ARRAY);
                sink.u32(list.isEmpty() ? STRING : typeOf(list.getFirst()));
                sink.u64(list.size());
                for (Object item : list) {
                    value(sink, item, false);
                }
            }
            default -> throw new IllegalArgumentException("no GGUF type for " + v.getClass());
        }
    }

    private static int typeOf(Object v) {
        return switch (v) {
            case String s -> STRING;
            case U32 u -> UINT32;
            case Integer i -> INT32;
            case Float f -> FLOAT32;
            case Boolean b -> BOOL;
            default -> throw new IllegalArgumentException("no GGUF array type for " + v.getClass());
        };
    }

    private static long align(long n) {
        return (n + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** Little-endian writes that count their bytes, for the alignment padding. */
    private static final class Sink {
        private final OutputStream out;
        private long written;

        Sink(OutputStream out) {
            this.out = out;
        }

        void raw(byte[] bytes) throws IOException {
            out.write(bytes);
            written += bytes.length;
        }

        void tensor(Tensor t) throws IOException {
            long before = written;
            t.bytes().writeTo(new java.io.FilterOutputStream(out) {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    written++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    written += len;
                }
            });
            if (written - before != t.size()) {
                throw new IOException(t.name() + ": " + (written - before) + " bytes written, " + t.size() + " announced");
            }
        }

        void u32(long v) throws IOException {
            raw(new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)});
        }

        void u64(long v) throws IOException {
            u32(v & 0xFFFFFFFFL);
            u32(v >>> 32);
        }

        void string(String s) throws IOException {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            u64(bytes.length);
            raw(bytes);
        }

        void pad() throws IOException {
            int n = (int) (align(written) - written);
            if (n > 0) {
                raw(new byte[n]);
            }
        }
    }
}
