package dev.aii.exec;

/** How a command ended. */
public sealed interface RunResult {

    /**
     * The command exited by itself.
     *
     * @param status the exit status, or 128 + the signal number when a signal ended it
     */
    record Exited(int status, CapturedOutput output) implements RunResult {
    }

    /** The command ran past the time limit and was terminated. */
    record TimedOut(CapturedOutput output) implements RunResult {
    }

    /** The user interrupted the command (Ctrl-C) and it was terminated. */
    record Interrupted(CapturedOutput output) implements RunResult {
    }

    /**
     * The command could not be started.
     *
     * @param reason a few words, e.g. {@code Permission denied}
     */
    record LaunchFailed(String reason) implements RunResult {
    }
}
