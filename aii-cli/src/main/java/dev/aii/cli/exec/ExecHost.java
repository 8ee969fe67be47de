package dev.aii.cli.exec;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.Terminal;
import java.util.Optional;

/** How commands are run and the user is asked, on this machine. */
public interface ExecHost {

    CommandRunner runner();

    Terminal terminal();

    /** A warning to print once when the best runner is not available (e.g. no native access). */
    Optional<String> fallbackWarning();

    /**
     * Ends every command running now as a timeout does (TERM to each, KILL
     * after the grace), and returns once they are gone; nothing where the
     * runner cannot reach its commands from outside a call.
     */
    default void terminateCommands() {
    }

    /**
     * What Ctrl-Z does while commands may run: stop them, stop aii, and once
     * aii is continued, continue them (their time limits stand still
     * meanwhile). Empty where the runner cannot; Ctrl-Z then stops aii alone.
     */
    default Optional<Runnable> suspendWithCommands() {
        return Optional.empty();
    }

    /**
     * Blocks until nothing reads the pipe that stdout is any more, and returns
     * true; false at once where that cannot be watched (then a closed stdout is
     * noticed at the next write only).
     */
    default boolean awaitStdoutReaderGone() {
        return false;
    }

    /**
     * Ends a wait in {@link #awaitStdoutReaderGone()} (which then returns
     * false), and any later one at once. aii calls it before it exits: a
     * thread still waiting inside a native call holds the JVM's exit back by
     * about 300 ms.
     */
    default void stopWatchingStdout() {
    }
}
