package dev.aii.cli;

import dev.aii.cli.backend.ModelProvider;
import dev.aii.cli.exec.ExecHost;
import dev.aii.cli.output.ManualTicker;
import dev.aii.cli.output.RecordingStream;
import dev.aii.cli.process.Interrupts;
import dev.aii.cli.process.ProcessSignals;
import dev.aii.cli.process.Stdio;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Platform;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.Terminal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs {@link Aii} in this JVM against a scripted model, with recorded streams. */
final class CliHarness {

    private byte[] stdin = new byte[0];
    private InputStream stdinStream;
    private Stdio stdio = new Stdio(false, true, false, false);
    private final Map<String, String> env = new HashMap<>();
    private Path workingDirectory;
    private ModelProvider models;
    private Terminal terminal;
    private CommandRunner runner = new ProcessBuilderRunner();
    private Platform platform = Platform.OTHER;
    final ManualInterrupts interrupts = new ManualInterrupts();
    /** The exit codes SIGTERM or SIGHUP ended the run with ({@link #signals}' {@code signalled}). */
    final List<Integer> signalExits = new java.util.concurrent.CopyOnWriteArrayList<>();
    final ProcessSignals signals = ProcessSignals.manual(signalExits::add);
    /** How often the run's exec host was asked to terminate its commands, and to stop with them. */
    final java.util.concurrent.atomic.AtomicInteger terminations = new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicInteger suspensions = new java.util.concurrent.atomic.AtomicInteger();
    /** Counted down, the reader of stdout is gone (see {@link #watchingStdout()}). */
    final java.util.concurrent.CountDownLatch stdoutReaderGone = new java.util.concurrent.CountDownLatch(1);
    private boolean stdoutWatched;
    final RecordingStream out = new RecordingStream();
    final RecordingStream err = new RecordingStream();
    private OutputStream stdout = out;
    /** The clock of the run's console: stepped by hand with {@link ManualTicker#advance}. */
    final ManualTicker ticker = new ManualTicker();

    CliHarness(Path home) {
        env.put("HOME", home.toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        // Commands run in this process's directory, so the resolution directory must be the same.
        workingDirectory = Path.of("").toAbsolutePath();
        models = e -> {
            throw new AssertionError("no model expected");
        };
        terminal = () -> {
            throw new IOException("no terminal");
        };
    }

    CliHarness model(ScriptedModel model) {
        this.models = e -> model;
        return this;
    }

    CliHarness models(ModelProvider provider) {
        this.models = provider;
        return this;
    }

    /** Stdin carries {@code text} (piped). */
    CliHarness stdin(String text) {
        this.stdin = text.getBytes(StandardCharsets.UTF_8);
        this.stdio = new Stdio(false, false, stdio.stdoutTerminal(), stdio.stderrTerminal());
        return this;
    }

    CliHarness stdinBytes(byte[] bytes) {
        this.stdin = bytes.clone();
        this.stdio = new Stdio(false, false, stdio.stdoutTerminal(), stdio.stderrTerminal());
        return this;
    }

    /** Stdin is a stream that is read as the test goes (piped). */
    CliHarness stdinStream(InputStream in) {
        this.stdinStream = in;
        this.stdio = new Stdio(false, false, stdio.stdoutTerminal(), stdio.stderrTerminal());
        return this;
    }

    /** Stdin is a terminal (nothing to read). */
    CliHarness stdinTerminal() {
        this.stdio = new Stdio(true, false, stdio.stdoutTerminal(), stdio.stderrTerminal());
        return this;
    }

    /** Stdin is /dev/null. */
    CliHarness stdinDevNull() {
        this.stdio = new Stdio(false, true, stdio.stdoutTerminal(), stdio.stderrTerminal());
        return this;
    }

    CliHarness stdoutTerminal() {
        this.stdio = new Stdio(stdio.stdinTerminal(), stdio.stdinDevNull(), true, stdio.stderrTerminal());
        return this;
    }

    CliHarness stderrTerminal() {
        this.stdio = new Stdio(stdio.stdinTerminal(), stdio.stdinDevNull(), stdio.stdoutTerminal(), true);
        return this;
    }

    /** Stdout takes {@code bytes} bytes (recorded in {@link #out}), then fails as a pipe whose reader left does. */
    CliHarness stdoutFailingAfter(int bytes) {
        return stdoutFailingAfter(bytes, "Broken pipe");
    }

    /** Stdout takes {@code bytes} bytes (recorded in {@link #out}), then fails with {@code why}. */
    CliHarness stdoutFailingAfter(int bytes, String why) {
        this.stdout = new OutputStream() {
            private int left = bytes;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (len > left) {
                    throw new IOException(why);
                }
                left -= len;
                out.write(b, off, len);
            }
        };
        return this;
    }

    /** The exec host watches stdout's reader: {@link #stdoutReaderGone} tells it the reader left. */
    CliHarness watchingStdout() {
        this.stdoutWatched = true;
        return this;
    }

    CliHarness env(String name, String value) {
        env.put(name, value);
        return this;
    }

    CliHarness workingDirectory(Path dir) {
        this.workingDirectory = dir;
        return this;
    }

    CliHarness terminal(Terminal t) {
        this.terminal = t;
        return this;
    }

    CliHarness runner(CommandRunner r) {
        this.runner = r;
        return this;
    }

    CliHarness platform(Platform p) {
        this.platform = p;
        return this;
    }

    Host host() {
        Terminal t = terminal;
        CommandRunner r = runner;
        boolean watched = stdoutWatched;
        ExecHost exec = new ExecHost() {
            @Override
            public CommandRunner runner() {
                return r;
            }

            @Override
            public Terminal terminal() {
                return t;
            }

            @Override
            public Optional<String> fallbackWarning() {
                return Optional.empty();
            }

            @Override
            public void terminateCommands() {
                terminations.incrementAndGet();
            }

            @Override
            public Optional<Runnable> suspendWithCommands() {
                return Optional.of(suspensions::incrementAndGet);
            }

            @Override
            public boolean awaitStdoutReaderGone() {
                if (!watched) {
                    return false;
                }
                try {
                    stdoutReaderGone.await();
                    return true;
                } catch (InterruptedException e) {
                    return false;
                }
            }
        };
        return new Host(stdinStream != null ? stdinStream : new ByteArrayInputStream(stdin), stdout, err, env,
                workingDirectory, stdio, models, () -> exec, interrupts, signals,
                history -> {
                    throw new AssertionError("no line editor in tests");
                },
                platform);
    }

    int run(String... args) {
        return new Aii(host(), () -> ticker).run(args);
    }

    String out() {
        return out.text();
    }

    String err() {
        return err.text();
    }

    /** Ctrl-C and Ctrl-Z on demand. */
    static final class ManualInterrupts implements Interrupts {
        private final List<Runnable> actions = new ArrayList<>();
        private final List<Runnable> suspends = new ArrayList<>();

        @Override
        public synchronized Registration onInterrupt(Runnable action) {
            return add(actions, action);
        }

        @Override
        public synchronized Registration onSuspend(Runnable action) {
            return add(suspends, action);
        }

        private Registration add(List<Runnable> list, Runnable action) {
            list.add(action);
            return () -> {
                synchronized (this) {
                    list.remove(action);
                }
            };
        }

        /** Presses Ctrl-C: runs the newest registered action. */
        void fire() {
            newest(actions);
        }

        /** Presses Ctrl-Z: runs the newest registered action; false when none is (Ctrl-Z would stop aii alone). */
        boolean suspend() {
            return newest(suspends);
        }

        private boolean newest(List<Runnable> list) {
            Runnable action;
            synchronized (this) {
                action = list.isEmpty() ? null : list.getLast();
            }
            if (action != null) {
                action.run();
            }
            return action != null;
        }
    }
}
