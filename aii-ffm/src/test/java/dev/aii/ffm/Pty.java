package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A command running under a real pseudo-terminal made by util-linux
 * {@code script}: what the test types goes to the terminal's input (with its
 * line discipline: echo, Ctrl-C as SIGINT to the foreground group, Ctrl-D as
 * end of file), and everything the terminal shows comes back as output.
 */
final class Pty implements AutoCloseable {

    private final Process process;
    private final StringBuilder output = new StringBuilder();
    private final Thread reader;

    private Pty(Process process) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("pty-reader").start(this::pump);
    }

    /** Starts {@code command} as the session leader of a new pseudo-terminal, which is its controlling terminal. */
    static Pty start(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(
                "script", "-qfec", "exec " + ChildJvm.shellLine(command), "/dev/null");
        pb.redirectErrorStream(true);
        return new Pty(pb.start());
    }

    private void pump() {
        byte[] buffer = new byte[4096];
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                synchronized (output) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    output.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process went away; what was read stays in output
        }
    }

    /** Types {@code text} on the terminal's keyboard. */
    void type(String text) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write(text.getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits until the terminal has shown {@code marker}; fails with everything shown when it does not within {@code max}. */
    String await(String marker, Duration max) throws InterruptedException {
        return awaitShown(shown -> shown.contains(marker) ? shown : null, marker, max);
    }

    /** The first line the terminal showed that starts with {@code prefix}, without its line ending. */
    String lineStartingWith(String prefix, Duration max) throws InterruptedException {
        return awaitShown(shown -> {
            int start = shown.indexOf(prefix);
            int end = start < 0 ? -1 : shown.indexOf('\n', start);
            return end < 0 ? null : shown.substring(start, end).replace("\r", "");
        }, "a line starting with " + prefix, max);
    }

    private String awaitShown(Function<String, String> find, String what, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        synchronized (output) {
            while (true) {
                String found = find.apply(output.toString());
                if (found != null) {
                    return found;
                }
                long left = end - System.nanoTime();
                if (left <= 0 || !reader.isAlive()) {
                    fail("terminal never showed " + what + "; it showed:\n" + output);
                }
                TimeUnit.NANOSECONDS.timedWait(output, Math.min(left, 100_000_000L));
            }
        }
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    /** Waits for the command to end; fails when it does not within {@code max}. */
    int awaitExit(Duration max) throws InterruptedException {
        if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            fail("command under the terminal did not end; it showed:\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
