package dev.aii.cli.exec;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.Terminal;
import java.util.Objects;
import java.util.Optional;

/** An {@link ExecHost} whose runner, terminal and fallback warning are fixed when it is made. */
abstract class ExecParts implements ExecHost {

    private final CommandRunner runner;
    private final Terminal terminal;
    private final Optional<String> fallbackWarning;

    ExecParts(CommandRunner runner, Terminal terminal, Optional<String> fallbackWarning) {
        this.runner = Objects.requireNonNull(runner, "runner");
        this.terminal = Objects.requireNonNull(terminal, "terminal");
        this.fallbackWarning = Objects.requireNonNull(fallbackWarning, "fallbackWarning");
    }

    @Override
    public final CommandRunner runner() {
        return runner;
    }

    @Override
    public final Terminal terminal() {
        return terminal;
    }

    @Override
    public final Optional<String> fallbackWarning() {
        return fallbackWarning;
    }
}
