package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The portable runner against the runner contract, and where it differs from
 * the POSIX runner of aii-ffm (whose test pins the other side).
 */
class ProcessBuilderRunnerTest extends CommandRunnerContract {

    private final ProcessBuilderRunner runner = new ProcessBuilderRunner();

    @Override
    protected CommandRunner runner() {
        return runner;
    }

    @Test
    void anExecutableWithoutAHashBangLineRunsWithBinSh() throws IOException {
        // The JDK starts programs as execvp(3) does: on ENOEXEC it tries /bin/sh on the file.
        // posix_spawn(3) reports ENOEXEC instead ("Exec format error").
        Path file = file("not-a-program", "echo would run\n", "rwxr-xr-x");
        assertEquals("exit 0\nwould run\n", text(runPath(file.toString())));
    }

    @Test
    void aBackgroundProcessOutlivesTheCommandThatStartedIt() throws InterruptedException {
        // The limitation the runner's javadoc states: nothing is signalled when the command exits by
        // itself, and the command leads no process group that could be. The POSIX runner kills the group.
        RunResult result = sh(Limits.DEFAULT, "sleep 300 > /dev/null 2>&1 & echo $!");
        long pid = Long.parseLong(assertInstanceOf(RunResult.Exited.class, result).output().text().strip());
        try {
            assertTrue(Programs.isRunning(pid), "the background sleep " + pid + " is gone");
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        Await.gone(pid, HANG);
    }

    @Test
    void anOrphanedDescendantEscapesATimeout() throws InterruptedException {
        // A descendant whose parent already exited belongs to init (or a subreaper), so the
        // descendants taken at the timeout miss it. The POSIX runner signals the whole group.
        RunResult result = sh(SHORT, "sh -c 'sleep 300 > /dev/null 2>&1 & echo $!'; exec sleep 300");
        long pid = Long.parseLong(assertInstanceOf(RunResult.TimedOut.class, result).output().text().strip());
        try {
            assertTrue(Programs.isRunning(pid), "the orphaned sleep " + pid + " is gone");
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        Await.gone(pid, HANG);
    }
}
