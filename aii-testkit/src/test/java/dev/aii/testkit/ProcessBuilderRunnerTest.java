package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
    void aProcessThatLeftTheGroupEscapesATimeout() throws InterruptedException {
        // The limitation the runner's javadoc states: a new session and no parent, nothing links it to the command.
        // The POSIX runner of aii-ffm, as the JVM's subreaper, stops it.
        Survivors mark = Survivors.mark();
        RunResult result = runner.run(Programs.path("env"), mark.command("sh", "-c",
                "setsid -f sleep 300 > /dev/null 2>&1; exec sleep 300"), SHORT, new Cancellation());
        assertInstanceOf(RunResult.TimedOut.class, result);
        List<String> left = mark.live();
        try {
            assertEquals(1, left.size(), left.toString());
            assertTrue(left.getFirst().endsWith(" sleep"), left.toString());
        } finally {
            left.forEach(p -> ProcessHandle.of(Long.parseLong(p.substring(0, p.indexOf(' '))))
                    .ifPresent(ProcessHandle::destroyForcibly));
        }
        assertEquals(List.of(), mark.awaitNone(HANG));
    }
}
