package dev.aii.cli.exec;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.DevTtyTerminal;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.Terminal;
import dev.aii.ffm.PipeReaderWatch;
import dev.aii.ffm.Posix;
import dev.aii.ffm.PosixCommandRunner;
import java.util.Optional;

/** Commands and prompts on this machine: through POSIX calls when native access works, else portable Java. */
final class LocalExec extends ExecParts {

    private final Optional<PosixCommandRunner> posix;
    /** The watch of stdout's reader, once it started; guarded by this. */
    private PipeReaderWatch stdoutWatch;
    private boolean stdoutWatchStopped;

    private LocalExec(CommandRunner runner, Optional<PosixCommandRunner> posix, Terminal terminal,
                      Optional<String> warning) {
        super(runner, terminal, warning);
        this.posix = posix;
    }

    static ExecHost create() {
        // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
        Posix.Availability availability = Posix.availability();
        if (availability instanceof Posix.Available posix) {
            return new LocalExec(posix.runner(), Optional.of(posix.runner()), posix.terminal(), Optional.empty());
        }
        Posix.Unavailable why = (Posix.Unavailable) availability;
        return new LocalExec(new ProcessBuilderRunner(), Optional.empty(), new DevTtyTerminal(),
                Optional.of(why.warning()));
    }

    /**
     * The fallback warning {@link #create()} will give, where it can be told
     * without binding the C library (no native access, an unsupported
     * system); empty when binding decides.
     */
    static Optional<String> warningBeforeBinding() {
        return Posix.unavailableBeforeBinding().map(Posix.Unavailable::warning);
    }

    @Override
    public void terminateCommands() {
        posix.ifPresent(PosixCommandRunner::terminateCommands);
    }

    @Override
    public boolean awaitStdoutReaderGone() {
        if (posix.isEmpty()) {
            return false;
        }
        PipeReaderWatch watch;
        synchronized (this) {
            if (stdoutWatchStopped) {
                return false;
            }
            watch = Posix.watchPipeReader(1);
            stdoutWatch = watch;
        }
        return watch.await();
    }

    @Override
    public void stopWatchingStdout() {
        synchronized (this) {
            stdoutWatchStopped = true;
            if (stdoutWatch != null) {
                stdoutWatch.close();
            }
        }
    }

    @Override
    public Optional<Runnable> suspendWithCommands() {
        return posix.map(runner -> runner::stopWithCommands);
    }
}
