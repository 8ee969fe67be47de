package dev.aii.ffm;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link CommandRunner} does, with real processes: a subclass
 * names the runner. Times are upper bounds that only catch hangs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class CommandRunnerBehaviour {

    static final String SH = "/bin/sh";
    static final Limits LIMITS = Limits.DEFAULT;
    /** Short limits; the timeout still leaves a loaded machine time to start sh and print a line. */
    static final Limits QUICK = Limits.DEFAULT.withTimeout(Duration.ofSeconds(2)).withKillGrace(Duration.ofSeconds(1));

    @TempDir
    Path dir;

    /** The runner under test. */
    protected abstract CommandRunner runner();

    RunResult run(Limits limits, String path, String... arguments) {
        return runner().run(path, List.of(arguments), limits, new Cancellation());
    }

    RunResult sh(Limits limits, String script) {
        return run(limits, SH, "-c", script);
    }

    static CapturedOutput text(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return new CapturedOutput(bytes, bytes.length);
    }

    @Test
    void echoWritesItsArgumentsAndExitsZero() {
        assertEquals(new RunResult.Exited(0, text("hello world\n")), run(LIMITS, "/bin/echo", "hello", "world"));
    }

    @Test
    void nonZeroExitStatusIsReported() {
        assertEquals(new RunResult.Exited(3, text("failing\n")), sh(LIMITS, "echo failing; exit 3"));
    }

    @Test
    void stdoutAndStderrShareOnePipeInArrivalOrder() {
        assertEquals(new RunResult.Exited(0, text("one\ntwo\nthree\n")), sh(LIMITS, "echo one; echo two >&2; echo three"));
    }

    @Test
    void stdinIsDevNullSoCatEndsAtOnceWithNoOutput() {
        assertEquals(new RunResult.Exited(0, text("")), run(LIMITS, "/bin/cat"));
    }

    @Test
    void argumentsArePassedVerbatim() {
        assertEquals(new RunResult.Exited(0, text("a b||$HOME|*|~|é|")),
                run(LIMITS, SH, "-c", "printf '%s|' \"$@\"", "sh", "a b", "", "$HOME", "*", "~", "é"));
    }

    @Test
    void thePathIsArgvZero() {
        // Without further arguments, sh -c gives its own argv[0] as $0.
        assertEquals(new RunResult.Exited(0, text("/bin/sh\n")), run(LIMITS, SH, "-c", "echo \"$0\""));
    }

    @Test
    void workingDirectoryAndEnvironmentAreInherited() throws Exception {
        String expected = Path.of("").toRealPath() + "\n" + System.getenv("PATH") + "\n";
        assertEquals(new RunResult.Exited(0, text(expected)), sh(LIMITS, "pwd -P; printf '%s\\n' \"$PATH\""));
    }

    @Test
    void outputBeyondTheCapIsCountedButNotKept() {
        byte[] all = IntStream.rangeClosed(1, 2000).mapToObj(Integer::toString)
                .collect(Collectors.joining("\n", "", "\n")).getBytes(StandardCharsets.US_ASCII);
        RunResult.Exited result = assertInstanceOf(RunResult.Exited.class, run(LIMITS, "/usr/bin/seq", "1", "2000"));
        assertEquals(0, result.status());
        assertArrayEquals(java.util.Arrays.copyOf(all, 2048), result.output().head());
        assertEquals(all.length, result.output().totalBytes());
        assertTrue(result.output().truncated());
    }

    @Test
    void outputOfExactlyTheCapIsKeptWhole() {
        RunResult.Exited result = assertInstanceOf(RunResult.Exited.class,
                run(LIMITS, "/usr/bin/head", "-c", "2048", "/dev/zero"));
        assertEquals(new CapturedOutput(new byte[2048], 2048), result.output());
        assertFalse(result.output().truncated());
    }

    @Test
    void aCapOfZeroKeepsNothingAndCountsEverything() {
        RunResult.Exited result = assertInstanceOf(RunResult.Exited.class,
                run(LIMITS.withOutputCap(0), "/usr/bin/head", "-c", "100000", "/dev/zero"));
        assertEquals(new CapturedOutput(new byte[0], 100000), result.output());
    }

    @Test
    void invalidUtf8IsKeptAsBytesAndReadAsReplacementCharacters() {
        RunResult.Exited result = assertInstanceOf(RunResult.Exited.class, sh(LIMITS, "printf '\\377ok'"));
        assertArrayEquals(new byte[] {(byte) 0xff, 'o', 'k'}, result.output().head());
        assertEquals("\uFFFDok", result.output().text());
    }

    @Test
    void deathBySigtermIsExit143() {
        assertEquals(new RunResult.Exited(143, text("")), sh(LIMITS, "kill -TERM $$"));
    }

    @Test
    void deathBySigkillIsExit137() {
        assertEquals(new RunResult.Exited(137, text("")), sh(LIMITS, "kill -KILL $$"));
    }

    @Test
    void timeoutTerminatesTheCommandAndKeepsItsOutput() {
        assertEquals(new RunResult.TimedOut(text("before\n")), sh(QUICK, "echo before; exec sleep 300"));
    }

    @Test
    void aCommandIgnoringSigtermIsKilledAfterTheKillGrace() {
        assertEquals(new RunResult.TimedOut(text("ignoring\n")), sh(QUICK, "trap '' TERM; echo ignoring; sleep 300"));
    }

    @Test
    void aGrandchildHoldingThePipeDoesNotHoldTheCall() {
        long start = System.nanoTime();
        assertEquals(new RunResult.Exited(0, text("parent done\n")), sh(LIMITS, "sleep 300 & echo parent done"));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "returned long after the pipe grace");
    }

    @Test
    void withNoPipeGraceOutputWrittenBeforeTheExitIsStillKept() {
        Limits noGrace = LIMITS.withPipeGrace(Duration.ZERO);
        for (int i = 0; i < 50; i++) {
            assertEquals(new RunResult.Exited(0, text("last words\n")), run(noGrace, "/bin/echo", "last words"));
        }
    }

    @Test
    void aMissingProgramFailsToLaunch() {
        assertEquals(new RunResult.LaunchFailed("No such file or directory"), run(LIMITS, dir + "/no-such-program"));
    }

    @Test
    void aFileWithoutExecutePermissionFailsToLaunch() throws Exception {
        Path script = Files.writeString(dir.resolve("script"), "#!/bin/sh\necho ran\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(new RunResult.LaunchFailed("Permission denied"), run(LIMITS, script.toString()));
    }

    @Test
    void aDirectoryFailsToLaunch() {
        assertEquals(new RunResult.LaunchFailed("Permission denied"), run(LIMITS, dir.toString()));
    }

    @Test
    void aCancelledRunStartsNothing() {
        Cancellation cancelled = new Cancellation();
        cancelled.cancel();
        Path marker = dir.resolve("ran");
        RunResult result = runner().run("/usr/bin/touch", List.of(marker.toString()), LIMITS, cancelled);
        assertEquals(new RunResult.Interrupted(text("")), result);
        assertFalse(Files.exists(marker));
    }

    @Test
    void cancellationStopsARunningCommand() throws Exception {
        Path marker = dir.resolve("started");
        Cancellation cancellation = new Cancellation();
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> runner().run(SH,
                List.of("-c", "echo started; : > \"$0\"; exec sleep 300", marker.toString()), LIMITS, cancellation));
        awaitFile(marker);
        cancellation.cancel();
        assertEquals(new RunResult.Interrupted(text("started\n")), result.get(30, TimeUnit.SECONDS));
    }

    static void awaitFile(Path marker) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(marker)) {
            assertTrue(System.nanoTime() < end, "the command never started: no " + marker);
            Thread.sleep(10);
        }
    }
}
