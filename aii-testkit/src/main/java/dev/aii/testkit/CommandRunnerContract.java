package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every behaviour a {@link CommandRunner} must have, with real processes and
 * the exact text the model reads: what the command sees, what comes back,
 * exit statuses, the limits and cancellation. Subclass it and return the
 * runner under test from {@link #runner()}; what only one runner does belongs
 * in that subclass. Launch failures, and the helpers, are in the
 * {@link CommandRunnerLaunchContract} this extends.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class CommandRunnerContract extends CommandRunnerLaunchContract {

    @Test
    void echoRunsAndReportsExitZeroWithItsOutput() {
        assertEquals("exit 0\nhello world\n", text(run(Limits.DEFAULT, "echo", "hello", "world")));
    }

    @Test
    void thePathIsArgvZero() {
        // With no further arguments, sh -c gives its own argv[0] as $0.
        String sh = Programs.path("sh");
        assertEquals("exit 0\n" + sh + "\n",
                text(runner().run(sh, List.of("-c", "echo \"$0\""), Limits.DEFAULT, new Cancellation())));
    }

    @Test
    void argumentsArePassedVerbatimWithoutAShell() {
        assertEquals("exit 0\n[$HOME] [a b] [*] [] ['x'] [~]\n", text(run(Limits.DEFAULT,
                "printf", "[%s] [%s] [%s] [%s] [%s] [%s]\\n", "$HOME", "a b", "*", "", "'x'", "~")));
    }

    @Test
    void theEnvironmentGivenIsSetOverTheInheritedOne() {
        String sh = Programs.path("sh");
        RunResult result = runner().run(sh, List.of("-c", "printf '%s|%s|%s' \"$AII_T_NEW\" \"$HOME\" \"${PATH:+set}\""),
                java.util.Map.of("AII_T_NEW", "a b=c", "HOME", "/elsewhere"), Limits.DEFAULT, new Cancellation());
        assertEquals("exit 0\na b=c|/elsewhere|set", text(result));
        // Without overrides the inherited environment is untouched.
        RunResult plain = runner().run(sh, List.of("-c", "printf '%s' \"${AII_T_NEW-unset}\""), java.util.Map.of(),
                Limits.DEFAULT, new Cancellation());
        assertEquals("exit 0\nunset", text(plain));
    }

    @Test
    void stdinIsDevNull() {
        assertEquals("exit 0\n/dev/null\n", text(run(Limits.DEFAULT, "readlink", "/proc/self/fd/0")));
        assertEquals("exit 0\n", text(run(Limits.DEFAULT, "cat")));
    }

    @Test
    void workingDirectoryAndEnvironmentAreInherited() throws IOException {
        assertEquals("exit 0\n" + Path.of("").toRealPath() + "\n", text(run(Limits.DEFAULT, "pwd", "-P")));
        assertEquals("exit 0\n" + System.getenv("PATH") + "\n", text(run(Limits.DEFAULT, "printenv", "PATH")));
    }

    @Test
    void nonZeroExitIsReportedWithStderrInTheOutput() {
        assertEquals("exit 3\noops\n", text(sh(Limits.DEFAULT, "echo oops >&2; exit 3")));
    }

    @Test
    void stdoutAndStderrArriveInOneStreamInOrder() {
        assertEquals("exit 0\none\ntwo\nthree\n", text(sh(Limits.DEFAULT, "echo one; echo two >&2; echo three")));
    }

    @Test
    void aChildKilledBySigtermReportsExit143() {
        assertEquals("exit 143\n", text(sh(Limits.DEFAULT, "kill -TERM $$")));
    }

    @Test
    void aChildKilledBySigkillReportsExit137() {
        assertEquals("exit 137\n", text(sh(Limits.DEFAULT, "kill -KILL $$")));
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
    void aCapOfZeroKeepsNothingAndCountsEverything() {
        Limits noCap = Limits.DEFAULT.withOutputCap(0);
        RunResult result = run(noCap, "head", "-c", "100000", "/dev/zero");
        assertEquals(new RunResult.Exited(0, new CapturedOutput(new byte[0], 100000)), result);
        assertEquals("exit 0\n\n[output truncated: 100000 bytes, showing first 0]", text(result, noCap));
    }

    @Test
    void invalidUtf8IsKeptAsBytesAndReadAsTheReplacementCharacter() {
        RunResult result = run(Limits.DEFAULT, "printf", "\\377ok");
        assertEquals("exit 0\n\uFFFDok", text(result));
        assertArrayEquals(new byte[] {(byte) 0xff, 'o', 'k'}, assertInstanceOf(RunResult.Exited.class, result).output().head());
    }

    /** {@code seq 1 n} as bytes, to compare a runner's head and count with. */
    private static byte[] seq(int n) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            out.append(i).append('\n');
        }
        return out.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @Test
    void megabytesOfVaryingOutputKeepTheExactFirstBytesAndTheExactCount() {
        byte[] all = seq(1_000_000);
        for (int cap : new int[] {2048, 0, 1, 100_000, 300_000}) {
            RunResult result = run(Limits.DEFAULT.withOutputCap(cap), "seq", "1", "1000000");
            CapturedOutput output = assertInstanceOf(RunResult.Exited.class, result).output();
            assertEquals(all.length, output.totalBytes(), "cap " + cap);
            assertArrayEquals(java.util.Arrays.copyOf(all, cap), output.head(), "cap " + cap);
        }
    }

    @Test
    void outputThatReachesTheCapInPiecesKeepsTheExactFirstBytesAndTheExactCount() throws IOException {
        // Short writes with pauses between them, so the cap is reached across reads, then a flood after it.
        Files.write(dir.resolve("flood"), seq(200_000));
        String script = "printf 'first %s\\n' 1; sleep 0.05; head -c 2040 " + dir.resolve("flood") + "; sleep 0.05; "
                + "printf 'tail\\n'; sleep 0.05; cat " + dir.resolve("flood") + "; printf end";
        RunResult result = sh(Limits.DEFAULT, script);
        byte[] flood = seq(200_000);
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.writeBytes("first 1\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        expected.write(flood, 0, 2040);
        expected.writeBytes("tail\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        expected.writeBytes(flood);
        expected.writeBytes("end".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        byte[] all = expected.toByteArray();
        CapturedOutput output = assertInstanceOf(RunResult.Exited.class, result).output();
        assertEquals(all.length, output.totalBytes());
        assertArrayEquals(java.util.Arrays.copyOf(all, 2048), output.head());
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
        CapturedOutput output = assertInstanceOf(RunResult.Exited.class, result).output();
        assertEquals(1073741824L, output.totalBytes());
        assertEquals(2048, output.head().length);
        assertTrue(text(result).endsWith("\u0000\n[output truncated: 1073741824 bytes, showing first 2048]"),
                "the truncation line is missing");
        // Keeping the output would take a gibibyte; draining it takes a buffer.
        assertTrue(allocated < 64L * 1024 * 1024, "allocated " + allocated + " bytes while draining 1 GiB");
    }

    @Test
    void aCommandPastTheTimeoutIsTerminatedKeepingItsOutputAndReturnsSoon() {
        long start = System.nanoTime();
        RunResult result = sh(SHORT, "echo before; exec sleep 300");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals("Terminated: the command exceeded the 2-second time limit.\nbefore\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void aChildIgnoringSigtermIsKilledAfterTheGrace() {
        long start = System.nanoTime();
        RunResult result = sh(SHORT, "trap '' TERM; echo ready; sleep 300; echo survived");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertEquals("Terminated: the command exceeded the 2-second time limit.\nready\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void descendantsAreTerminatedWithTheChildOnTimeout() throws InterruptedException {
        RunResult result = sh(SHORT, "sleep 300 & echo $!; wait");
        long grandchild = Long.parseLong(assertInstanceOf(RunResult.TimedOut.class, result).output().text().strip());
        Await.gone(grandchild, HANG);
    }

    @Test
    void endlessOutputHitsCapAndTimeoutTogether() {
        RunResult result = run(SHORT, "yes");
        CapturedOutput output = assertInstanceOf(RunResult.TimedOut.class, result).output();
        assertEquals("y\n".repeat(1024), output.text());
        assertTrue(output.totalBytes() > 2048, "total " + output.totalBytes());
        assertEquals("Terminated: the command exceeded the 2-second time limit.\n" + "y\n".repeat(1024)
                + "\n[output truncated: " + output.totalBytes() + " bytes, showing first 2048]", text(result));
    }

    @Test
    void aGrandchildHoldingThePipeOpenDoesNotHangTheCall() {
        long start = System.nanoTime();
        RunResult result = sh(Limits.DEFAULT, "sleep 300 & echo $!");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        String pid = assertInstanceOf(RunResult.Exited.class, result).output().text().strip();
        ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroy);
        assertEquals("exit 0\n" + pid + "\n", text(result));
        assertTrue(took.compareTo(HANG) < 0, "took " + took);
    }

    @Test
    void cancellationTerminatesTheCommandAndReturnsInterrupted() throws Exception {
        Path marker = dir.resolve("started");
        Cancellation cancellation = new Cancellation();
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> runner().run(Programs.path("sh"),
                List.of("-c", "echo started; : > \"$0\"; exec sleep 300", marker.toString()), Limits.DEFAULT, cancellation));
        Await.file(marker, HANG);
        cancellation.cancel();
        // HANG is shorter than the 30 s timeout: a runner that ignored the cancellation fails here.
        assertEquals("Terminated: interrupted by the user.\nstarted\n", text(result.get(HANG.toSeconds(), TimeUnit.SECONDS)));
    }

    @Test
    void anInterruptOfTheCallingThreadCountsAsCancellation() throws Exception {
        Path marker = dir.resolve("started");
        CompletableFuture<RunResult> result = new CompletableFuture<>();
        Thread caller = Thread.ofPlatform().daemon().start(() -> result.complete(runner().run(Programs.path("sh"),
                List.of("-c", ": > \"$0\"; exec sleep 300", marker.toString()), Limits.DEFAULT, new Cancellation())));
        Await.file(marker, HANG);
        caller.interrupt();
        assertEquals("Terminated: interrupted by the user.\n", text(result.get(HANG.toSeconds(), TimeUnit.SECONDS)));
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
    void anOrphanedDescendantIsStoppedOnTimeout() throws InterruptedException {
        // Its parent exited at once, so it is no descendant of the command any more (Linux).
        Survivors mark = Survivors.mark();
        RunResult result = runner().run(Programs.path("env"), mark.command("sh", "-c",
                "sh -c 'sleep 300 > /dev/null 2>&1 &'; echo started; exec sleep 300"), SHORT, new Cancellation());
        assertEquals("Terminated: the command exceeded the 2-second time limit.\nstarted\n", text(result));
        assertEquals(List.of(), mark.awaitNone(HANG));
    }

    @Test
    void aForkLoopIsStoppedOnTimeoutAndTheCallReturnsSoonAfterTheGrace() throws Exception {
        assertForkLoopStopped("");
    }

    @Test
    void aForkLoopIgnoringSigtermIsKilledAfterTheGraceWithWhatItForkedMeanwhile() throws Exception {
        assertForkLoopStopped("trap '' TERM; ");
    }

    /**
     * Forking all the time, in a child shell too, and through subshells that
     * leave orphans behind; paced, so that a machine shared with other work
     * keeps free process ids. Nothing of it may be left (Linux), and the call
     * must not hang on the stream of new processes.
     */
    private void assertForkLoopStopped(String traps) throws Exception {
        Survivors mark = Survivors.mark();
        String loop = traps + "while :; do sleep 300 & (sleep 300 &); printf x >> \"$0/n\"; sleep 0.01; done";
        long start = System.nanoTime();
        RunResult result = runner().run(Programs.path("env"), mark.command("sh", "-c",
                "sh -c '" + loop.replace("$0", "$1") + "' inner \"$0\" & " + loop, dir.toString()), SHORT,
                new Cancellation());
        long took = (System.nanoTime() - start) / 1_000_000;
        List<String> left = mark.awaitNone(HANG);
        System.out.println("FIGURE " + getClass().getSimpleName() + " fork loop [" + traps + "]: about "
                + 2 * Files.size(dir.resolve("n")) + " sleeps started, the call returned after " + took
                + " ms (timeout 2000 ms, kill grace 1000 ms), " + left.size() + " left");
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals(List.of(), left);
        assertTrue(Duration.ofMillis(took).compareTo(HANG) < 0, "took " + took + " ms");
    }
}
