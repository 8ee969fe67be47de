package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.exec.ToolTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a {@link CommandRunner} starts a program, or fails to with the
 * system's words, and the helpers of the runner contract. Runners are tested
 * through {@link CommandRunnerContract}, which extends this.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class CommandRunnerLaunchContract {

    /** Upper bound that only catches a hang; the limits under test are far shorter. */
    protected static final Duration HANG = Duration.ofSeconds(20);

    /**
     * Two seconds to time out, so that a loaded machine still starts sh and
     * prints a line first, and one from SIGTERM to SIGKILL.
     */
    protected static final Limits SHORT = Limits.DEFAULT.withTimeout(Duration.ofSeconds(2))
            .withKillGrace(Duration.ofSeconds(1));

    @TempDir
    protected Path dir;

    CommandRunnerLaunchContract() {
        // Only the runner contract extends this, so that a runner's test class runs both.
    }

    /** The runner under test. */
    protected abstract CommandRunner runner();

    /** Runs the program {@code name}, found on {@code PATH} (see {@link Programs#path}). */
    protected RunResult run(Limits limits, String name, String... arguments) {
        return runner().run(Programs.path(name), List.of(arguments), limits, new Cancellation());
    }

    /** Runs {@code sh -c script}. */
    protected RunResult sh(Limits limits, String script) {
        return run(limits, "sh", "-c", script);
    }

    /** Runs the program at {@code path} as given. */
    protected RunResult runPath(String path, String... arguments) {
        return runner().run(path, List.of(arguments), Limits.DEFAULT, new Cancellation());
    }

    /** What the model reads of {@code result}, run under {@link #SHORT} or {@link Limits#DEFAULT} (the same cap). */
    protected static String text(RunResult result) {
        return text(result, SHORT);
    }

    /** What the model reads of {@code result}, run under {@code limits}; a launch failure as {@code launch failed: <reason>}. */
    protected static String text(RunResult result, Limits limits) {
        int cap = limits.outputCap();
        return switch (result) {
            case RunResult.Exited e -> ToolTexts.exited(e.status(), e.output(), cap);
            case RunResult.TimedOut t -> ToolTexts.timedOut(limits.timeout().toSeconds(), t.output(), cap);
            case RunResult.Interrupted i -> ToolTexts.interrupted(i.output(), cap);
            case RunResult.LaunchFailed f -> "launch failed: " + f.reason();
        };
    }

    /** Writes {@code content} to {@code name} in the test's directory with the permissions {@code rwx}, e.g. {@code rwxr-xr-x}. */
    protected Path file(String name, String content, String rwx) throws IOException {
        Path file = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(rwx));
        return file;
    }

    @Test
    void anExecutableScriptRunsWithTheInterpreterOfItsHashBangLine() throws IOException {
        Path script = file("script", "#!/bin/sh\necho \"ran $0 $1\"\n", "rwxr-xr-x");
        assertEquals("exit 0\nran " + script + " one\n", text(runPath(script.toString(), "one")));
    }

    @Test
    void aMissingProgramIsALaunchFailureWithTheSystemsReason() {
        assertEquals(new RunResult.LaunchFailed("No such file or directory"), runPath(dir + "/no-such-program"));
    }

    @Test
    void aFileWithoutExecutePermissionIsALaunchFailureWithTheSystemsReason() throws IOException {
        Path script = file("script", "#!/bin/sh\necho ran\n", "rw-r--r--");
        assertEquals(new RunResult.LaunchFailed("Permission denied"), runPath(script.toString()));
    }

    @Test
    void aDirectoryIsALaunchFailureWithTheSystemsReason() {
        assertEquals(new RunResult.LaunchFailed("Permission denied"), runPath(dir.toString()));
    }

    @Test
    void aPathThroughAFileIsALaunchFailureWithTheSystemsReason() throws IOException {
        Path file = file("file", "", "rw-r--r--");
        assertEquals(new RunResult.LaunchFailed("Not a directory"), runPath(file + "/program"));
    }

    @Test
    void anArgumentWithNulIsALaunchFailureAndStartsNothing() {
        // C would read the NUL as the argument's end and run something else than asked.
        Path made = dir.resolve("made");
        assertEquals(new RunResult.LaunchFailed("argument contains a NUL character"),
                runPath(Programs.path("touch"), made.toString(), "a\0b"));
        assertFalse(Files.exists(made));
    }
}
