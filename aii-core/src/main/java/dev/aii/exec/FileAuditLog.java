package dev.aii.exec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.aii.config.IoReasons;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** The audit log as JSON lines appended to a file; see {@link AuditLog#appendingTo}. */
final class FileAuditLog implements AuditLog {

    private static final JsonFactory JSON = new JsonFactory();
    private static final Set<StandardOpenOption> APPEND =
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.APPEND, StandardOpenOption.CREATE);

    private final Path file;
    private final Consumer<String> onFailure;
    private final AtomicBoolean warned = new AtomicBoolean();

    FileAuditLog(Path file, Consumer<String> onFailure) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
    }

    @Override
    public void record(AuditRecord record) {
        byte[] line = line(record);
        // Opened for each line, so a log that is rotated or removed meanwhile is simply created again.
        try (FileChannel channel = FileChannel.open(file, APPEND, ownerOnly())) {
            // A direct buffer goes to the kernel as it is: one write(2), which O_APPEND makes atomic.
            ByteBuffer bytes = ByteBuffer.allocateDirect(line.length).put(line).flip();
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            warnOnce(IoReasons.describe(e));
        } catch (RuntimeException e) {
            warnOnce(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    private void warnOnce(String reason) {
        if (warned.compareAndSet(false, true)) {
            onFailure.accept("could not write audit log " + file + ": " + reason);
        }
    }

    private FileAttribute<?>[] ownerOnly() {
        Path dir = file.getParent() == null ? file : file.getParent();
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    /** The record as one line of JSON, ending in LF. */
    static byte[] line(AuditRecord r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("time", r.time().truncatedTo(ChronoUnit.MILLIS).toString());
            stringOrNull(g, "argv", r.argv().orElse(null));
            stringOrNull(g, "path", r.path().orElse(null));
            g.writeStringField("workingDirectory", r.workingDirectory());
            g.writeStringField("decision", r.decision().wireName());
            g.writeStringField("why", r.why());
            g.writeFieldName("exit");
            if (r.exit().isEmpty()) {
                g.writeNull();
            } else if (!r.exit().get().isEmpty() && r.exit().get().chars().allMatch(c -> c >= '0' && c <= '9')) {
                g.writeNumber(Integer.parseInt(r.exit().get()));
            } else {
                g.writeString(r.exit().get());
            }
            g.writeFieldName("durationMs");
            if (r.duration().isPresent()) {
                g.writeNumber(r.duration().get().toMillis());
            } else {
                g.writeNull();
            }
            g.writeFieldName("outputBytes");
            if (r.outputBytes().isPresent()) {
                g.writeNumber(r.outputBytes().getAsLong());
            } else {
                g.writeNull();
            }
            g.writeArrayFieldStart("guarded");
            for (String reason : r.guarded()) {
                g.writeString(reason);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    private static void stringOrNull(JsonGenerator g, String field, String value) throws IOException {
        if (value == null) {
            g.writeNullField(field);
        } else {
            g.writeStringField(field, value);
        }
    }
}
