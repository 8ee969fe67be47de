package dev.aii.cli.output;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Records the bytes and each separate write. */
public final class RecordingStream extends OutputStream {
    private final ByteArrayOutputStream all = new ByteArrayOutputStream();
    private final List<String> writes = new ArrayList<>();

    @Override
    public synchronized void write(int b) {
        all.write(b);
        writes.add(new String(new byte[] {(byte) b}, StandardCharsets.UTF_8));
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        all.write(b, off, len);
        writes.add(new String(b, off, len, StandardCharsets.UTF_8));
    }

    public synchronized String text() {
        return all.toString(StandardCharsets.UTF_8);
    }

    public synchronized List<String> writes() {
        return List.copyOf(writes);
    }
}
