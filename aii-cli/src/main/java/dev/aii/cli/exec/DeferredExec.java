package dev.aii.cli.exec;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code -x}'s host while the C library may still be being bound on a thread
 * of its own ({@link ExecSupply}): the first request goes out at once, and
 * only what needs the bound host waits for it: the first tool call
 * ({@link #settle()}), a command, an approval prompt, Ctrl-Z during an
 * answer, the watch of stdout's reader (on its own thread). Until the host
 * exists no command can have started, so a terminating signal has nothing to
 * stop.
 *
 * <p>The fallback warning is given at startup when it can be told without
 * binding (no native access, an unsupported system), as before; otherwise,
 * should binding fail (a C library without a function aii needs, a failed
 * self-check), at the first tool call, before its command line or prompt.
 * {@link #fallbackWarning()} is the warning known before binding; one known
 * only after it comes from {@link #settle()}.
 */
final class DeferredExec extends ExecParts {

    private final ExecSupply made;
    private final Settling settling;
    private boolean stdoutWatchStopped;   // guarded by this
    private ExecHost watching;            // guarded by this

    /**
     * @param made                 the host, waited for when first needed
     * @param warningBeforeBinding the fallback warning known without binding, given at startup by the caller
     * @param warn                 where a fallback warning known only after binding goes, once
     */
    DeferredExec(ExecSupply made, Optional<String> warningBeforeBinding, Consumer<String> warn) {
        Settling settling = new Settling(made, warningBeforeBinding, warn);
        super(new Runner(settling), () -> settling.host().terminal().open(), warningBeforeBinding);
        this.made = made;
        this.settling = settling;
    }

    /**
     * The bound host, waited for if it is still being made; the first call
     * gives the fallback warning that only binding could tell, if any.
     */
    ExecHost settle() {
        return settling.host();
    }

    @Override
    public void terminateCommands() {
        // Commands run only through the made host: none while it is being made.
        made.ifMade().ifPresent(ExecHost::terminateCommands);
    }

    /**
     * Ctrl-Z while an answer runs: when binding may give a runner that can
     * stop its commands, the stop waits for the host (at most the rest of the
     * binding) and does what it says; a host that cannot stops aii alone, as
     * the terminal's own Ctrl-Z would.
     */
    @Override
    public Optional<Runnable> suspendWithCommands() {
        if (fallbackWarning().isPresent()) {
            return Optional.empty();
        }
        return Optional.of(() -> settle().suspendWithCommands().ifPresentOrElse(Runnable::run,
                () -> sun.misc.Signal.raise(new sun.misc.Signal("STOP"))));
    }

    @Override
    public boolean awaitStdoutReaderGone() {
        ExecHost host = made.get();
        synchronized (this) {
            if (stdoutWatchStopped) {
                return false;
            }
            watching = host;
        }
        return host.awaitStdoutReaderGone();
    }

    @Override
    public void stopWatchingStdout() {
        ExecHost host;
        synchronized (this) {
            stdoutWatchStopped = true;
            host = watching;
        }
        if (host != null) {
            host.stopWatchingStdout();
        }
    }

    /** The made host, waited for, and the fallback warning that only binding could tell, given once. */
    private static final class Settling {
        private final ExecSupply made;
        private final Optional<String> warningBeforeBinding;
        private final Consumer<String> warn;
        private boolean warned;   // guarded by this

        Settling(ExecSupply made, Optional<String> warningBeforeBinding, Consumer<String> warn) {
            this.made = Objects.requireNonNull(made, "made");
            this.warningBeforeBinding = Objects.requireNonNull(warningBeforeBinding, "warningBeforeBinding");
            this.warn = Objects.requireNonNull(warn, "warn");
        }

        ExecHost host() {
            ExecHost host = made.get();
            Optional<String> late = Optional.empty();
            synchronized (this) {
                if (!warned) {
                    warned = true;
                    if (warningBeforeBinding.isEmpty()) {
                        late = host.fallbackWarning();
                    }
                }
            }
            late.ifPresent(warn);
            return host;
        }
    }

    /** Runs each command on the made host's runner, with the environment it is given. */
    private record Runner(Settling settling) implements CommandRunner {

        @Override
        public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                             Cancellation cancellation) {
            return settling.host().runner().run(path, arguments, environment, limits, cancellation);
        }
    }
}
