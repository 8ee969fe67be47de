package dev.aii.exec;

import java.util.List;
import java.util.Map;

/** Starts a program without a shell and collects its output under limits. */
public interface CommandRunner {

    /**
     * Runs one command to completion, timeout or cancellation, with
     * {@code environment} set in the child's environment on top of the
     * inherited one (a variable named there gets that value, added or
     * replaced; aii uses it to turn off what a repository's configuration can
     * make git run). Never throws for a failure to launch: that is a
     * {@link RunResult.LaunchFailed}. A runner that cannot set the environment
     * must not run the command without it: it returns
     * {@code LaunchFailed} when {@code environment} is not empty.
     *
     * <p>The child's stdin is {@code /dev/null}; its stdout and stderr share one
     * pipe (arrival order); the first {@link Limits#outputCap()} bytes are kept
     * and all are counted while the pipe is drained to its end; after the child
     * exits, the pipe may stay open at most {@link Limits#pipeGrace()}. On timeout
     * the child gets SIGTERM, then SIGKILL after {@link Limits#killGrace()}; on
     * cancellation likewise. Working directory and the rest of the environment
     * are inherited.
     *
     * @param path the absolute path of the program, used as argv[0] too
     * @param arguments the arguments after argv[0]
     */
    RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                  Cancellation cancellation);

    /** Runs one command as {@link #run(String, List, Map, Limits, Cancellation)} does, in the inherited environment. */
    default RunResult run(String path, List<String> arguments, Limits limits, Cancellation cancellation) {
        return run(path, arguments, Map.of(), limits, cancellation);
    }
}
