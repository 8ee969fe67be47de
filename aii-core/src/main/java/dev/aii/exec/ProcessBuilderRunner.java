package dev.aii.exec;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A portable {@link CommandRunner} on {@link ProcessBuilder}, for embedders
 * without native access. The program is started by its absolute path without
 * a shell, stdin is {@code /dev/null}, and stderr shares stdout's pipe.
 *
 * <p>Java cannot start the child in a process group of its own, so on a
 * timeout or cancellation this runner finds what the child started by other
 * means (see {@code ProcessTree}): the live descendants, again and again
 * while the kill grace runs (a fork loop keeps making new ones), and on Linux
 * the processes whose parent died first; each gets SIGTERM, then SIGKILL when
 * the grace is over, and the call returns soon after the grace. What leaves
 * the JVM's process group or session, or loses its parent outside Linux,
 * escapes; so does everything a command leaves behind when it exits by
 * itself. The POSIX runner of aii-ffm has none of these limits.
 *
 * {@snippet :
 * RunResult result = new ProcessBuilderRunner()
 *         .run("/bin/echo", List.of("hi"), Limits.DEFAULT, new Cancellation());
 * }
 */
public final class ProcessBuilderRunner implements CommandRunner {

    private static final File DEV_NULL = new File("/dev/null");

    /** {@code error=13, Permission denied} (older JDKs). */
    private static final Pattern ERRNO_COMMA = Pattern.compile("error=\\d+,\\s*(.+)");

    /** {@code Exec failed, error: 13 (Permission denied)} (JDK 23 and later). */
    private static final Pattern ERRNO_PAREN = Pattern.compile("error:\\s*\\d+\\s*\\((.+)\\)");

    /** Why waiting for the child ended. */
    private enum Ending { EXITED, TIMED_OUT, CANCELLED }

    /** A runner; it holds no state, so one instance can serve every thread. */
    public ProcessBuilderRunner() {
    }


    @Override
    public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                         Cancellation cancellation) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(cancellation, "cancellation");
        List<String> argv = new ArrayList<>(arguments.size() + 1);
        argv.add(path);
        argv.addAll(arguments);
        if (argv.stream().anyMatch(a -> a.indexOf('\0') >= 0)) {
            return new RunResult.LaunchFailed("argument contains a NUL character");
        }
        if (cancellation.isCancelled()) {
            return new RunResult.Interrupted(new CapturedOutput(new byte[0], 0));
        }
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(argv)
                    .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectErrorStream(true);
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            return new RunResult.LaunchFailed(launchReason(e));
        }
        long startTicks = ProcessTree.startTicks(process);
        OutputDrain drain = OutputDrain.start(process.getInputStream(), limits.outputCap());
        Ending ending = awaitEnding(process, limits.timeout(), cancellation);
        if (ending != Ending.EXITED) {
            ProcessTree.terminate(process, startTicks, limits.killGrace());
        }
        CapturedOutput output = drain.finish(limits.pipeGrace());
        return switch (ending) {
            // The JDK reports a death by signal n as 128 + n, as a shell's $? does.
            case EXITED -> new RunResult.Exited(process.exitValue(), output);
            case TIMED_OUT -> new RunResult.TimedOut(output);
            case CANCELLED -> new RunResult.Interrupted(output);
        };
    }

    private static Ending awaitEnding(Process process, Duration timeout, Cancellation cancellation) {
        CompletableFuture<Ending> ending = new CompletableFuture<>();
        process.onExit().thenRun(() -> ending.complete(Ending.EXITED));
        try (Cancellation.Registration ignored = cancellation.register(() -> ending.complete(Ending.CANCELLED))) {
            return ending.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return ending.complete(Ending.TIMED_OUT) ? Ending.TIMED_OUT : ending.join();
        } catch (InterruptedException e) {
            // The calling thread was interrupted: stop the command as Ctrl-C would.
            Thread.currentThread().interrupt();
            return Ending.CANCELLED;
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for a process cannot fail", e);
        }
    }

    /** The system's words for a failed start, e.g. {@code Permission denied}, without Java's framing. */
    static String launchReason(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message == null) {
                continue;
            }
            for (Pattern pattern : List.of(ERRNO_PAREN, ERRNO_COMMA)) {
                Matcher m = pattern.matcher(message);
                if (m.find()) {
                    return m.group(1).strip();
                }
            }
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        int colon = message.lastIndexOf(": ");
        return (colon >= 0 ? message.substring(colon + 2) : message).strip();
    }
}
