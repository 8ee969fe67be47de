package dev.aii.ffm;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.ffm.posix.CommandRun;
import dev.aii.ffm.posix.LibC;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link CommandRunner} on {@code posix_spawn}: the command starts in a new
 * session, so it has no controlling terminal (it cannot open {@code /dev/tty},
 * read the user's keys or write into a prompt) and leads its own process
 * group; it inherits no descriptor but stdin ({@code /dev/null}) and one pipe
 * as stdout and stderr; its signal mask is empty and SIGHUP, SIGINT, SIGQUIT,
 * SIGPIPE and SIGTERM are at their defaults.
 *
 * <p>Signals go to the whole group: on timeout SIGTERM, then SIGKILL after the
 * kill grace; on cancellation (Ctrl-C) SIGINT, then SIGTERM and SIGKILL each a
 * kill grace later. When the command has exited and its pipe is closed (or its
 * grace is over), whatever is left of its group is killed, so nothing it
 * started outlives the call (except processes that left the group with
 * {@code setsid} or {@code setpgid}). The call runs on the calling thread; an
 * interrupt of that thread counts as a cancellation. Thread-safe: each call has
 * its own memory.
 *
 * {@snippet :
 * CommandRunner runner = new PosixCommandRunner();
 * RunResult result = runner.run("/bin/ls", List.of("-l"), Limits.DEFAULT, new Cancellation());
 * }
 */
public final class PosixCommandRunner implements CommandRunner {

    private final LibC libc;

    /** @throws UnsupportedOperationException with the reason when {@link Posix#available()} is false */
    public PosixCommandRunner() {
        this(Posix.libc());
    }

    PosixCommandRunner(LibC libc) {
        this.libc = Objects.requireNonNull(libc, "libc");
    }

    @Override
    public RunResult run(String path, List<String> arguments, Limits limits, Cancellation cancellation) {
        return run(path, arguments, Map.of(), limits, cancellation);
    }

    /** {@inheritDoc} The child's environment is this process's, with {@code environment} set over it. */
    @Override
    public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                         Cancellation cancellation) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(cancellation, "cancellation");
        return CommandRun.run(libc, path, List.copyOf(arguments), Map.copyOf(environment), limits, cancellation);
    }
}
