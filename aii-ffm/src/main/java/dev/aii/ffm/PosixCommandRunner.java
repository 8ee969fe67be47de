package dev.aii.ffm;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.ffm.posix.Calls;
import dev.aii.ffm.posix.CommandRun;
import dev.aii.ffm.posix.LibC;
import dev.aii.ffm.posix.Lifetimes;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link CommandRunner} on {@code posix_spawn}: the command starts in a new
 * session, so it has no controlling terminal (it cannot open {@code /dev/tty},
 * read the user's keys or write into a prompt) and leads its own process
 * group; it inherits no descriptor but stdin ({@code /dev/null}) and one pipe
 * as stdout and stderr; its signal mask is empty and every signal is at its
 * default action, whatever the JVM inherited.
 *
 * <p>Signals go to the whole group: on timeout SIGTERM, then SIGKILL after the
 * kill grace; on cancellation (Ctrl-C) SIGINT, then SIGTERM and SIGKILL each a
 * kill grace later. When the command has exited and its pipe is closed (or its
 * grace is over), whatever is left of its group is killed. On Linux the JVM
 * becomes the child subreaper at the first command, so processes that leave
 * the group ({@code setsid}, {@code setpgid}, double forks) become its
 * children: they get the same signals, are killed when the command ends, and
 * are reaped by their own ids (never {@code waitpid(-1)}: the JDK's processes
 * and their exit statuses stay the JDK's). On macOS, which has no subreaper,
 * such processes escape. A shutdown hook terminates whatever is still running
 * when the JVM exits (anything but SIGKILL of the JVM or
 * {@link Runtime#halt}).
 *
 * <p>The call runs on the calling thread; an interrupt of that thread counts
 * as a cancellation. Thread-safe: each call has its own memory.
 * {@link #suspendCommands()}, {@link #resumeCommands()},
 * {@link #stopWithCommands()} and {@link #terminateCommands()} act on every
 * command the POSIX runners of this JVM are running.
 *
 * {@snippet :
 * CommandRunner runner = new PosixCommandRunner();
 * RunResult result = runner.run("/bin/ls", List.of("-l"), Limits.DEFAULT, new Cancellation());
 * }
 */
public final class PosixCommandRunner implements CommandRunner {

    private final LibC libc;
    private final Lifetimes lifetimes;

    /** @throws UnsupportedOperationException with the reason when {@link Posix#available()} is false */
    public PosixCommandRunner() {
        this(Posix.libc(), Posix.lifetimes());
    }

    PosixCommandRunner(LibC libc, Lifetimes lifetimes) {
        this.libc = Objects.requireNonNull(libc, "libc");
        this.lifetimes = Objects.requireNonNull(lifetimes, "lifetimes");
    }


    /** {@inheritDoc} The child's environment is this process's, with {@code environment} set over it. */
    @Override
    public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                         Cancellation cancellation) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(cancellation, "cancellation");
        return CommandRun.run(libc, lifetimes, path, List.copyOf(arguments), Map.copyOf(environment), limits, cancellation);
    }

    /**
     * Stops (SIGSTOP) every running command, with what it left outside its
     * group, until {@link #resumeCommands()}; a command started meanwhile is
     * stopped at once. The time they spend stopped does not count against
     * their time limits (nor their graces). Idempotent.
     */
    public void suspendCommands() {
        lifetimes.suspendAll();
    }

    /** Continues (SIGCONT) what {@link #suspendCommands()} stopped; their time limits count again. Idempotent. */
    public void resumeCommands() {
        lifetimes.resumeAll();
    }

    /**
     * What Ctrl-Z needs: suspends the commands, stops this process
     * (SIGSTOP, as the terminal's SIGTSTP would have by default), and once
     * it is continued ({@code fg}, SIGCONT) resumes the commands. Returns
     * then. A limit that passed while this process was stopped some other
     * way, with the command left running, is enforced as soon as this
     * process runs again; time a command spent suspended does not count.
     */
    public void stopWithCommands() {
        lifetimes.suspendAll();
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            calls.raise(calls.os().sigStop());
        } finally {
            lifetimes.resumeAll();
        }
    }

    /**
     * Terminates every running command as a timeout does, whatever it is
     * doing, and returns once they are gone: SIGTERM (with SIGCONT, for a
     * suspended one) to each group and what it left behind, SIGKILL after the
     * kill grace to whatever still runs. Their calls then return as the
     * processes' exits say. The JVM's shutdown hook does this too.
     */
    public void terminateCommands() {
        lifetimes.terminateAll();
    }
}
