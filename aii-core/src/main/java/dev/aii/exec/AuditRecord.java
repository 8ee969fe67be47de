package dev.aii.exec;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One call of the {@code run_command} tool as the audit log keeps it. It holds
 * no environment values and none of the command's output, only how many bytes
 * the command wrote.
 *
 * @param time when the call arrived
 * @param argv the command rendered as at the prompt and in the log line
 *             ({@code git status --short}); empty when the call's arguments
 *             were not a command at all
 * @param path the resolved absolute path, when the program was found
 * @param workingDirectory the directory the command runs (or would run) in
 * @param decision whether it ran, was denied, or was an error
 * @param why how that was decided: {@code default rule}, {@code rule <rule>},
 *            {@code approved once}, {@code approved always}, {@code user declined},
 *            {@code no terminal}, {@code limit}, {@code interrupted}; for an error,
 *            what kind ({@code not found}, {@code launch failed}, ...)
 * @param exit how a command that ran ended: its status as decimal digits,
 *             {@code timeout} or {@code interrupted}; empty when it did not run
 * @param duration how long it ran; empty when it did not run
 * @param outputBytes how many bytes it wrote; empty when it did not run
 * @param guarded the reasons of the argument guards that made aii ask, when it asked because of one
 */
public record AuditRecord(Instant time, Optional<String> argv, Optional<String> path, String workingDirectory,
                          Outcome decision, String why, Optional<String> exit, Optional<Duration> duration,
                          OptionalLong outputBytes, List<String> guarded) {

    /** What became of a call. */
    public enum Outcome {
        /** The command ran (to its end, a timeout or an interruption). */
        RAN("ran"),
        /** The command was not run: the user, the missing terminal or a limit said no. */
        DENIED("denied"),
        /** The call could not become a command, or the command could not start. */
        ERROR("error");

        private final String wireName;

        Outcome(String wireName) {
            this.wireName = wireName;
        }

        /** The word written to the log. */
        public String wireName() {
            return wireName;
        }
    }

    public AuditRecord {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(argv, "argv");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(exit, "exit");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(outputBytes, "outputBytes");
        guarded = List.copyOf(guarded);
        if ((decision == Outcome.RAN) != exit.isPresent()) {
            throw new IllegalArgumentException("an exit goes with a command that ran, and only with it: "
                    + decision + " " + exit);
        }
    }
}
