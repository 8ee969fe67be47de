package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CapturedOutput;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.exec.ToolTexts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every behaviour a {@link CommandRunner} must have, with real processes.
 * Subclass it and return the runner under test from {@link #runner()}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class CommandRunnerContract {

    /** Upper bound that only catches a hang; the limits under test are far shorter. */
    protected static final Duration HANG = Duration.ofSeconds(10);

    /** One second to time out, one to escalate, one for the pipe: short enough for tests. */
    protected static final Limits SHORT = Limits.DEFAULT.withTimeout(Duration.ofSeconds(1))
            .withKillGrace(Duration.ofSeconds(1));

    @TempDir
    protected Path dir;

    /** The runner under test. */
    protected abstract CommandRunner runner();

    protected RunResult run(Limits limits, String program, String... arguments) {
        return runner().run(Programs.path(program), List.of(arguments), limits, new Cancellation());
    }

    protected static String text(RunResult result) {
        return switch (result) {
            case RunResult.Exited e -> ToolTexts.exited(e.status(), e.output(), Limits.DEFAULT.outputCap());
            case RunResult.TimedOut t -> ToolTexts.timedOut(1, t.output(), Limits.DEFAULT.outputCap());
            case RunResult.Interrupted i -> ToolTexts.interrupted(i.output(), Limits.DEFAULT.outputCap());
            case RunResult.LaunchFailed f -> "launch failed: " + f.reason();
        };
    }

    @Test
    void echoRunsAndReportsExitZeroWithItsOutput() {
        assertEquals("exit 0\nhi\n", text(run(Limits.DEFAULT, "echo", "hi")));
    }

    @Test
    void nonZeroExitIsReportedWithStderrInTheOutput() {
        assertEquals("exit 3\noops\n", text(run(Limits.DEFAULT, "sh", "-c", "echo oops >&2; exit 3")));
    }

    @Test
    void stdoutAndStderrArriveInOneStreamInOrder() {
        assertEquals("exit 0\none\ntwo\nthree\n",
                text(run(Limits.DEFAULT, "sh", "-c", "echo one; echo two >&2; echo three")));
    }

    @Test
    void stdinIsDevNull() {
        assertEquals("exit 0\n/dev/null\n", text(run(Limits.DEFAULT, "readlink", "/proc/self/fd/0")));
        assertEquals("exit 0\n", text(run(Limits.DEFAULT, "cat")));
    }

    @Test
    void argumentsArePassedVerbatimWithoutAShell() {
        assertEquals("exit 0\n[$HOME] [a b] [*] [] ['x']\n",
                text(run(Limits.DEFAULT, "printf", "[%s] [%s] [%s] [%s] [%s]\\n", "$HOME", "a b", "*", "", "'x'")));
    }

    @Test
    void workingDirectoryAndEnvironmentAreInherited() {
        assertEquals("exit 0\n" + Path.of("").toAbsolutePath() + "\n", text(run(Limits.DEFAULT, "pwd")));
        assertEquals("exit 0\n" + System.getenv("PATH") + "\n", text(run(Limits.DEFAULT, "printenv", "PATH")));
    }

    @Test
    void sleepPastTheTimeoutIsTerminatedWithTheExactTextAndReturnsSoon() {
        long start = System.nanoTime();
        RunResult result = run(SHORT, "sleep", "30");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals("Terminated: the command exceeded the 1-second time limit.\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void aChildIgnoringSigtermIsKilledAfterTheGrace() {
        long start = System.nanoTime();
        RunResult result = run(SHORT, "sh", "-c", "trap '' TERM; echo ready; sleep 30; echo survived");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertEquals("Terminated: the command exceeded the 1-second time limit.\nready\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void descendantsAreTerminatedWithTheChildOnTimeout() throws Exception {
        RunResult result = run(SHORT, "sh", "-c", "sleep 30 & echo $!; wait");
        assertInstanceOf(RunResult.TimedOut.class, result);
        long grandchild = Long.parseLong(((RunResult.TimedOut) result).output().text().strip());
        assertTrue(awaitGone(grandchild), "the grandchild " + grandchild + " outlived the timeout");
    }

    @Test
    void endlessOutputHitsCapAndTimeoutTogether() {
        RunResult result = run(SHORT, "yes");
        assertInstanceOf(RunResult.TimedOut.class, result);
        CapturedOutput output = ((RunResult.TimedOut) result).output();
        assertEquals("y\n".repeat(1024), output.text());
        assertTrue(output.totalBytes() > 2048, "total " + output.totalBytes());
        assertEquals("Terminated: the command exceeded the 1-second time limit.\n" + "y\n".repeat(1024)
                + "\n[output truncated: " + output.totalBytes() + " bytes, showing first 2048]", text(result));
    }

    @Test
    void outputOverTheCapKeepsTheFirst2048BytesAndCountsAll() throws IOException {
        Path file = Files.writeString(dir.resolve("big.txt"), "x".repeat(3000));
        assertEquals("exit 0\n" + "x".repeat(2048) + "\n[output truncated: 3000 bytes, showing first 2048]",
                text(run(Limits.DEFAULT, "cat", file.toString())));
    }

    @Test
    void outputOfExactlyTheCapIsNotTruncated() throws IOException {
        Path file = Files.writeString(dir.resolve("cap.txt"), "x".repeat(2048));
        assertEquals("exit 0\n" + "x".repeat(2048), text(run(Limits.DEFAULT, "cat", file.toString())));
    }

    @Test
    void invalidUtf8BecomesTheReplacementCharacter() {
        assertEquals("exit 0\n\uFFFD", text(run(Limits.DEFAULT, "printf", "\\377")));
    }

    @Test
    void aChildKilledBySigtermReportsExit143() {
        assertEquals("exit 143\n", text(run(Limits.DEFAULT, "sh", "-c", "kill -TERM $$")));
    }

    @Test
    void aChildKilledBySigkillReportsExit137() {
        assertEquals("exit 137\n", text(run(Limits.DEFAULT, "sh", "-c", "kill -KILL $$")));
    }

    @Test
    void aGrandchildHoldingThePipeOpenDoesNotHangTheCall() {
        long start = System.nanoTime();
        RunResult result = run(Limits.DEFAULT, "sh", "-c", "sleep 30 & echo $!");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(RunResult.Exited.class, result);
        String pid = ((RunResult.Exited) result).output().text().strip();
        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroy);
        assertEquals("exit 0\n" + pid + "\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void aGibibyteOfOutputIsDrainedInConstantMemory() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM cannot count allocated bytes");
        long before = threads.getTotalThreadAllocatedBytes();
        RunResult result = run(Limits.DEFAULT, "head", "-c", "1073741824", "/dev/zero");
        long allocated = threads.getTotalThreadAllocatedBytes() - before;
        assertInstanceOf(RunResult.Exited.class, result);
        CapturedOutput output = ((RunResult.Exited) result).output();
        assertEquals(1073741824L, output.totalBytes());
        assertEquals(2048, output.head().length);
        assertTrue(text(result).endsWith("\u0000\n[output truncated: 1073741824 bytes, showing first 2048]"),
                "the truncation line is missing");
        // Keeping the output would take a gibibyte; draining it takes a buffer.
        assertTrue(allocated < 64L * 1024 * 1024, "allocated " + allocated + " bytes while draining 1 GiB");
    }

    @Test
    void cancellationTerminatesTheCommandAndReturnsInterrupted() throws Exception {
        Path marker = dir.resolve("started");
        Cancellation cancellation = new Cancellation();
        Thread.ofPlatform().daemon().start(() -> {
            long deadline = System.nanoTime() + HANG.toNanos();
            while (!Files.exists(marker) && System.nanoTime() < deadline) {
                sleepQuietly(10);
            }
            cancellation.cancel();
        });
        long start = System.nanoTime();
        RunResult result = runner().run(Programs.path("sh"),
                List.of("-c", "echo started; : > '" + marker + "'; sleep 30"), Limits.DEFAULT, cancellation);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(RunResult.Interrupted.class, result);
        assertEquals("Terminated: interrupted by the user.\nstarted\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void anAlreadyCancelledRunStartsNothing() {
        Path made = dir.resolve("made");
        Cancellation cancellation = new Cancellation();
        cancellation.cancel();
        RunResult result = runner().run(Programs.path("touch"), List.of(made.toString()), Limits.DEFAULT, cancellation);
        assertEquals("Terminated: interrupted by the user.\n", text(result));
        assertFalse(Files.exists(made));
    }

    @Test
    void aMissingProgramIsALaunchFailureWithTheSystemsReason() {
        RunResult result = runner().run(dir.resolve("missing").toString(), List.of(), Limits.DEFAULT, new Cancellation());
        assertEquals(new RunResult.LaunchFailed("No such file or directory"), result);
    }

    @Test
    void aFileWithoutExecutePermissionIsALaunchFailureWithTheSystemsReason() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "echo hi\n");
        RunResult result = runner().run(file.toString(), List.of(), Limits.DEFAULT, new Cancellation());
        assertEquals(new RunResult.LaunchFailed("Permission denied"), result);
    }

    private static boolean awaitGone(long pid) {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            if (!Programs.isRunning(pid)) {
                return true;
            }
            sleepQuietly(20);
        }
        return false;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
