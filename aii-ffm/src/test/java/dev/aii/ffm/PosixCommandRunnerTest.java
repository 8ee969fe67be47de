package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.testkit.CommandRunnerContract;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The POSIX runner against the runner contract of the testkit, and where it
 * differs from the portable runner (whose test there pins the other side).
 * Its process groups and isolation are in {@link PosixProcessGroupTest} and
 * {@link PosixIsolationTest}.
 */
class PosixCommandRunnerTest extends CommandRunnerContract {

    private final PosixCommandRunner runner = new PosixCommandRunner();

    @Override
    protected CommandRunner runner() {
        return runner;
    }

    @Test
    void anExecutableInAnUnknownFormatFailsToLaunch() throws Exception {
        // No #! line and not a binary: posix_spawn reports ENOEXEC rather than guessing a shell,
        // where the JDK, as execvp(3) does, runs the file with /bin/sh.
        Path file = file("not-a-program", "echo would run\n", "rwxr-xr-x");
        assertEquals(new RunResult.LaunchFailed("Exec format error"), runPath(file.toString()));
    }

    @Test
    void withNoPipeGraceOutputWrittenBeforeTheExitIsStillKept() {
        // When the grace ends this runner still takes what sits in the pipe, reading it without
        // blocking. The portable runner cannot: java.io offers no read that does not block, so it
        // keeps only what its reader thread has already taken, and a zero grace can lose the tail.
        // The exit and the last write race the reader: repeat so that losing the race would show.
        Limits noGrace = Limits.DEFAULT.withPipeGrace(Duration.ZERO);
        for (int i = 0; i < 50; i++) {
            assertEquals("exit 0\nlast words\n", text(run(noGrace, "echo", "last words")), "run " + i);
        }
    }

    @Test
    void argumentsBeyondAsciiArePassedAsUtf8() {
        // Not in the contract: the portable runner encodes arguments as the JDK does, by the locale,
        // and the C locale turns these into '?'; this runner sends UTF-8 there (CommandRun.argumentCharset).
        assertEquals("exit 0\n[é] [日本]\n", text(run(Limits.DEFAULT, "printf", "[%s] [%s]\\n", "é", "日本")));
    }
}
