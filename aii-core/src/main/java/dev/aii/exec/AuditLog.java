package dev.aii.exec;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Where the {@code run_command} tool reports every call it handled, ran or
 * not, for an audit trail.
 *
 * {@snippet :
 * RunCommandTool tool = RunCommandTool.builder()
 *         // ... policy, approver, runner, output ...
 *         .auditLog(AuditLog.appendingTo(Path.of("/var/log/mytool/exec.jsonl"), output::warning))
 *         .build();
 * }
 */
public interface AuditLog {

    /**
     * Keeps one record. Called on the thread of the tool call, after the call
     * is decided; it must not throw (a log that cannot write reports that its
     * own way), and the tool ignores anything it throws.
     */
    void record(AuditRecord record);

    /** A log that keeps nothing. */
    static AuditLog none() {
        return record -> { };
    }

    /**
     * A log that appends one JSON object per record, as one line, to
     * {@code file}: each line in a single {@code write} on a file opened with
     * {@code O_APPEND} (so lines from several threads or processes never mix),
     * the file created with mode 0600 when missing. Fields: {@code time} (UTC,
     * ISO-8601), {@code argv}, {@code path}, {@code workingDirectory},
     * {@code decision} ({@code ran}, {@code denied}, {@code error}),
     * {@code why}, {@code exit} (a number, {@code "timeout"} or
     * {@code "interrupted"}), {@code durationMs}, {@code outputBytes},
     * {@code guarded}; {@code null} where a field does not apply.
     *
     * @param onFailure told once, with a sentence such as
     *                  {@code could not write audit log /x: Permission denied},
     *                  when a line cannot be written; later failures are silent
     */
    static AuditLog appendingTo(Path file, Consumer<String> onFailure) {
        return new FileAuditLog(file, onFailure);
    }
}
