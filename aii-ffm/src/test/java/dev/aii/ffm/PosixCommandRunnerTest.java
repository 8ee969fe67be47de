package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** The POSIX runner does all a runner does (see {@link CommandRunnerBehaviour}), and fails to launch with the system's words. */
class PosixCommandRunnerTest extends CommandRunnerBehaviour {

    @Override
    protected CommandRunner runner() {
        return new PosixCommandRunner();
    }

    @Test
    void anExecutableInAnUnknownFormatFailsToLaunch() throws Exception {
        // No #! line and not a binary: posix_spawn reports ENOEXEC rather than guessing a shell.
        Path file = Files.writeString(dir.resolve("not-a-program"), "echo would run\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(new RunResult.LaunchFailed("Exec format error"), run(LIMITS, file.toString()));
    }

    @Test
    void aPathThroughAFileFailsToLaunch() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "");
        assertEquals(new RunResult.LaunchFailed("Not a directory"), run(LIMITS, file + "/program"));
    }

    @Test
    void anArgumentWithNulFailsToLaunch() {
        assertEquals(new RunResult.LaunchFailed("argument contains a NUL character"), run(LIMITS, "/bin/echo", "a\0b"));
    }
}
