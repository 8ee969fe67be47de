package dev.aii.cli;

import dev.aii.cli.backend.ModelProvider;
import dev.aii.cli.exec.ExecHost;
import dev.aii.cli.input.LineInputWithInterrupts;
import dev.aii.cli.process.Interrupts;
import dev.aii.cli.process.ProcessSignals;
import dev.aii.cli.process.Stdio;
import dev.aii.config.SystemEnvironment;
import dev.aii.exec.Platform;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Everything the command line touches, passed in so that it can run inside a
 * test as well as in a process.
 *
 * @param in stdin
 * @param out stdout (raw bytes; aii writes UTF-8)
 * @param err stderr (raw bytes; aii writes UTF-8)
 * @param env the environment variables
 * @param workingDirectory the current directory
 * @param stdio what the standard streams are connected to
 * @param models opens the backend
 * @param exec how commands run and the user is asked, made only with {@code -x}
 * @param interrupts where Ctrl-C comes from when no line editor owns the terminal
 * @param signals SIGTERM and SIGHUP, and what they stop
 * @param lineEditor opens line editing when stdin and stdout are a terminal
 * @param platform the operating system family, for texts
 */
public record Host(InputStream in, OutputStream out, OutputStream err, Map<String, String> env, Path workingDirectory,
            Stdio stdio, ModelProvider models, Supplier<ExecHost> exec, Interrupts interrupts,
            ProcessSignals signals, LineEditorFactory lineEditor, Platform platform) {

    public Host {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        env = Map.copyOf(env);
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(stdio, "stdio");
        Objects.requireNonNull(models, "models");
        Objects.requireNonNull(exec, "exec");
        Objects.requireNonNull(interrupts, "interrupts");
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(lineEditor, "lineEditor");
        Objects.requireNonNull(platform, "platform");
    }

    /** Whether {@code AII_DEBUG=1}. */
    boolean debug() {
        return "1".equals(env.get("AII_DEBUG"));
    }

    /** {@code ~}: {@code HOME} when set and non-empty, else the account's home. */
    public String home() {
        return SystemEnvironment.home(env);
    }

    /** Opens line editing on the terminal. */
    @FunctionalInterface
    interface LineEditorFactory {
        /** @param history the file that keeps the lines across sessions, if any */
        LineInputWithInterrupts open(java.util.Optional<Path> history) throws java.io.IOException;
    }
}
