package dev.aii.bench;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunResult;
import dev.aii.ffm.Posix;
import java.time.Duration;
import java.util.List;

/**
 * Drains {@code head -c BYTES /dev/zero} through a runner under the default
 * output cap and prints one line: runner, bytes counted, seconds, MiB/s.
 * bench/run.sh runs it under /usr/bin/time for the peak RSS.
 *
 * <p>Usage: {@code Drain posix|portable BYTES}
 */
public final class Drain {

    private Drain() {
    }

    public static void main(String[] args) {
        CommandRunner runner = switch (args[0]) {
            case "posix" -> switch (Posix.availability()) {
                case Posix.Available posix -> posix.runner();
                case Posix.Unavailable why -> throw new IllegalStateException(why.warning());
            };
            case "portable" -> new ProcessBuilderRunner();
            default -> throw new IllegalArgumentException("runner: posix or portable");
        };
        long bytes = Long.parseLong(args[1]);
        Limits limits = Limits.DEFAULT.withTimeout(Duration.ofMinutes(10));
        long start = System.nanoTime();
        RunResult result = runner.run("/usr/bin/head", List.of("-c", Long.toString(bytes), "/dev/zero"), limits,
                new Cancellation());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!(result instanceof RunResult.Exited exited) || exited.status() != 0
                || exited.output().totalBytes() != bytes || exited.output().head().length != limits.outputCap()) {
            throw new IllegalStateException("unexpected result: " + result);
        }
        System.out.printf("%s %d bytes %.3f s %.0f MiB/s kept %d%n", args[0], bytes, seconds,
                bytes / seconds / (1 << 20), exited.output().head().length);
    }
}
