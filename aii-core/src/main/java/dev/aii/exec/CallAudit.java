package dev.aii.exec;

import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.Render;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** The facts of one tool call, gathered as they become known, for its {@link AuditRecord}. */
final class CallAudit {

    private final Instant time;
    private final String workingDirectory;
    private Optional<String> argv = Optional.empty();
    private Optional<String> path = Optional.empty();
    private List<String> guarded = List.of();
    private AuditRecord.Outcome decision = AuditRecord.Outcome.ERROR;
    private String why = "unknown";
    private Optional<String> exit = Optional.empty();
    private Optional<Duration> duration = Optional.empty();
    private OptionalLong outputBytes = OptionalLong.empty();

    CallAudit(Instant time, String workingDirectory) {
        this.time = time;
        this.workingDirectory = workingDirectory;
    }

    /** The command as the model gave it, before it is resolved. */
    void given(String executable, List<String> arguments) {
        List<String> tokens = new ArrayList<>(arguments.size() + 1);
        tokens.add(executable);
        tokens.addAll(arguments);
        argv = Optional.of(Render.render(tokens));
    }

    /** The command as resolved: shown as at the prompt, with its path. */
    void resolved(ResolvedCommand command) {
        argv = Optional.of(command.display());
        path = Optional.of(command.path());
    }

    void guarded(List<String> reasons) {
        guarded = List.copyOf(reasons);
    }

    /** Notes that the command was not run; returns {@code result} for the caller to hand on. */
    String denied(String reason, String result) {
        decision = AuditRecord.Outcome.DENIED;
        why = reason;
        return result;
    }

    /** Notes that the call was an error; returns {@code result}. */
    String error(String reason, String result) {
        decision = AuditRecord.Outcome.ERROR;
        why = reason;
        return result;
    }

    /** Notes how a command that was started ended. */
    void ran(String reason, RunResult result, Duration took) {
        if (result instanceof RunResult.LaunchFailed) {
            error("launch failed", "");
        } else if (result instanceof RunResult.Exited exited) {
            finished(reason, Integer.toString(exited.status()), exited.output(), took);
        } else if (result instanceof RunResult.TimedOut timedOut) {
            finished(reason, "timeout", timedOut.output(), took);
        } else if (result instanceof RunResult.Interrupted interrupted) {
            finished(reason, "interrupted", interrupted.output(), took);
        } else {
            throw new IllegalStateException("unknown run result: " + result);
        }
    }

    private void finished(String reason, String end, CapturedOutput output, Duration took) {
        decision = AuditRecord.Outcome.RAN;
        why = reason;
        exit = Optional.of(end);
        duration = Optional.of(took);
        outputBytes = OptionalLong.of(output.totalBytes());
    }

    AuditRecord record() {
        return new AuditRecord(time, argv, path, workingDirectory, decision, why, exit, duration, outputBytes,
                guarded);
    }

    /** {@code default rule} for one of the built-in defaults, else {@code rule <rendered rule>}. */
    static String allowedBy(Rule rule) {
        return Builtins.DEFAULT_RULES.contains(rule) ? "default rule" : "rule " + Render.render(rule.lineTokens());
    }

    /** The audit words for a call the policy refused. */
    static String refused(Decision.Refusal refusal) {
        return switch (refusal) {
            case INVALID_EXECUTABLE -> "invalid executable";
            case PROGRAM_NAME_IN_ARGUMENTS -> "program name in arguments";
            case NUL_IN_ARGUMENT -> "NUL in argument";
            case NOT_FOUND -> "not found";
        };
    }
}
