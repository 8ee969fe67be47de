package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.Programs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A started aii whose stdout and stderr go to files. */
final class Running {

    private final Process process;
    private final Path out;
    private final Path err;

    Running(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    String stderr() throws IOException {
        return Files.readString(err);
    }

    /** Waits until stderr holds {@code text}. */
    void awaitStderr(String text) throws IOException, InterruptedException {
        await(err, "stderr", text);
    }

    /** Waits until stdout holds {@code text}. */
    void awaitStdout(String text) throws IOException, InterruptedException {
        await(out, "stdout", text);
    }

    private void await(Path file, String name, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + AiiProcess.LIMIT.toNanos();
        while (!Files.readString(file).contains(text)) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new AssertionError("expected " + text + " on " + name + "; it holds: " + Files.readString(file)
                        + (name.equals("stderr") ? "" : "; stderr: " + stderr()));
            }
            Thread.sleep(20);
        }
    }

    /** The JVM running aii: the launcher and setsid exec it in place. */
    ProcessHandle java() {
        ProcessHandle self = process.toHandle();
        if (isJava(self)) {
            return self;
        }
        return self.descendants().filter(Running::isJava).findFirst()
                .orElseThrow(() -> new AssertionError("no java process under " + self.pid()));
    }

    private static boolean isJava(ProcessHandle handle) {
        return handle.info().command().map(c -> c.endsWith("/java")).orElse(false);
    }

    /** The processes aii started whose program is {@code name}. */
    List<ProcessHandle> children(String name) {
        return java().descendants()
                .filter(h -> h.info().command().map(c -> c.endsWith("/" + name)).orElse(false))
                .toList();
    }

    /** Waits until aii has started {@code count} processes whose program is {@code name}. */
    List<ProcessHandle> awaitChildren(String name, int count) throws InterruptedException {
        long deadline = System.nanoTime() + AiiProcess.LIMIT.toNanos();
        while (true) {
            List<ProcessHandle> found = children(name);
            if (found.size() >= count) {
                return found;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + count + " " + name + " processes under aii, found " + found);
            }
            Thread.sleep(20);
        }
    }

    /** Sends SIGINT to aii's JVM, as Ctrl-C on its terminal would. */
    void interrupt() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder(Programs.path("kill"), "-INT", Long.toString(java().pid())).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -INT failed");
    }

    Result awaitExit() throws IOException, InterruptedException {
        return awaitExit(AiiProcess.LIMIT);
    }

    Result awaitExit(Duration limit) throws IOException, InterruptedException {
        if (!process.waitFor(limit.toNanos(), TimeUnit.NANOSECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("aii did not end within " + limit + "; stdout: " + Files.readString(out)
                    + "; stderr: " + stderr());
        }
        return new Result(process.exitValue(), Files.readString(out), stderr());
    }
}
