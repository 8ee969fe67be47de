package dev.aii.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

/**
 * Runs a shell command under a real pseudo-terminal, made by util-linux
 * {@code script}: the command gets the pty as its controlling terminal and
 * as stdin, stdout and stderr (unless it redirects them), while the test
 * reads everything the pty shows and types into it. The test JVM needs no
 * terminal of its own.
 *
 * {@snippet :
 * try (PtyDriver pty = PtyDriver.start("read a </dev/tty; echo got $a", Map.of(), dir)) {
 *     pty.type("y\n");
 *     pty.awaitOutput("got y", Duration.ofSeconds(10));
 * }
 * }
 */
public final class PtyDriver implements AutoCloseable {

    private final Process process;
    private final OutputStream keys;
    private final ByteArrayOutputStream shown = new ByteArrayOutputStream();
    private int mark;
    private boolean ended;
    private java.util.regex.Pattern hidden;

    private PtyDriver(Process process) {
        this.process = process;
        this.keys = process.getOutputStream();
        Thread.ofPlatform().daemon().name("pty-output").start(this::pump);
    }

    /**
     * Starts {@code command} ({@code /bin/sh} syntax) in {@code directory} with
     * extra environment variables.
     */
    public static PtyDriver start(String command, Map<String, String> environment, Path directory)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(List.of(Programs.path("script"), "-qfec", command, "/dev/null"))
                .directory(directory.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        // script runs the command with $SHELL -c.
        builder.environment().put("SHELL", "/bin/sh");
        return new PtyDriver(builder.start());
    }

    private void pump() {
        byte[] buffer = new byte[4096];
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (this) {
                    shown.write(buffer, 0, n);
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // The process is gone; what it showed stays readable.
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /** Everything the terminal has shown so far (echoed keys included), decoded leniently. */
    public synchronized String output() {
        return shown.toString(StandardCharsets.UTF_8);
    }

    /**
     * Leaves what {@code pattern} matches out of what {@link #awaitOutput}
     * and {@link #awaitLine} look through ({@link #output()} stays whole):
     * for output that may or may not come, such as a status line drawn and
     * erased again, which a test about something else must not depend on.
     */
    public synchronized PtyDriver hiding(java.util.regex.Pattern pattern) {
        hidden = pattern;
        return this;
    }

    /** The output without what {@link #hiding} leaves out: what {@link #awaitOutput} looks through. */
    public synchronized String filtered() {
        String all = output();
        return hidden == null ? all : hidden.matcher(all).replaceAll("");
    }

    /**
     * Waits until {@code text} appears after the previous match (or the start)
     * and moves the mark past it, so consecutive calls follow the screen.
     *
     * @throws AssertionError with the whole output when it does not appear within {@code limit}
     *         or the terminal closes without showing it
     */
    public synchronized void awaitOutput(String text, Duration limit) throws InterruptedException {
        await(quoted(text), limit, all -> {
            int at = all.indexOf(text, mark);
            return at < 0 ? -1 : at + text.length();
        });
    }

    /**
     * Waits for a whole line starting with {@code prefix} after the previous
     * match (or the start), moves the mark past it and returns it without
     * its line ending, as a scenario prints a result for the test to check.
     *
     * @throws AssertionError with the whole output when no such line appears within {@code limit}
     *         or the terminal closes without showing one
     */
    public synchronized String awaitLine(String prefix, Duration limit) throws InterruptedException {
        String[] line = new String[1];
        await("a line starting with " + quoted(prefix), limit, all -> {
            int start = all.indexOf(prefix, mark);
            int end = start < 0 ? -1 : all.indexOf('\n', start);
            if (end < 0) {
                return -1;
            }
            line[0] = all.substring(start, end).replace("\r", "");
            return end + 1;
        });
        return line[0];
    }

    /** Waits until {@code find} gives where a match ends in the output, and moves the mark there. */
    private void await(String what, Duration limit, ToIntFunction<String> find) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            boolean closed = ended;
            String all = filtered();
            int end = find.applyAsInt(all);
            if (end >= 0) {
                mark = end;
                return;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || closed) {
                throw new AssertionError("expected " + what + " on the terminal"
                        + (closed ? " before it closed" : " within " + limit) + "; it showed " + quoted(all));
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }

    /** Types {@code keys} as a user would (a line ends with {@code \n}). */
    public void type(String text) throws IOException {
        keys.write(text.getBytes(StandardCharsets.UTF_8));
        keys.flush();
    }

    /**
     * Waits for the command to end.
     *
     * @return its exit status
     * @throws AssertionError with the output when it does not end within {@code limit}
     */
    public int awaitExit(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("the command did not end within " + limit + "; it showed " + quoted(output()));
        }
        return process.exitValue();
    }

    /** Ends the command and everything it started, if still running. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            keys.close();
        } catch (IOException e) {
            // Already closed by the exit of script.
        }
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\r", "\\r").replace("\n", "\\n") + "\"";
    }
}
