package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CapturedOutput;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.testkit.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Signals reach the command's whole process group, and nothing of the group outlives the call (Linux /proc). */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class PosixProcessGroupTest {

    /** Short limits; the timeout still leaves a loaded machine time to start sh and print its pid. */
    private static final Limits QUICK = Limits.DEFAULT.withTimeout(Duration.ofSeconds(2))
            .withKillGrace(Duration.ofMillis(500));
    private static final Duration DYING = Duration.ofSeconds(10);
    private static final Duration STARTING = Duration.ofSeconds(20);

    private final PosixCommandRunner runner = new PosixCommandRunner();

    @TempDir
    Path dir;

    private RunResult sh(Limits limits, String script) {
        return runner.run("/bin/sh", List.of("-c", script), limits, new Cancellation());
    }

    /** The process group of a script that printed {@code $$} first. */
    private static int group(CapturedOutput output) {
        String text = output.text();
        return Integer.parseInt(text.substring(0, text.indexOf('\n')));
    }

    private static CapturedOutput output(RunResult result) {
        return switch (result) {
            case RunResult.Exited e -> e.output();
            case RunResult.TimedOut t -> t.output();
            case RunResult.Interrupted i -> i.output();
            case RunResult.LaunchFailed f -> throw new AssertionError("launch failed: " + f.reason());
        };
    }

    @Test
    void aTimeoutKillsTheCommandsBackgroundProcessesToo() throws Exception {
        RunResult result = sh(QUICK, "echo $$; sleep 300 & sleep 300");
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals(List.of(), ProcessTable.awaitNoLiveMembers(group(output(result)), DYING));
    }

    @Test
    void aBackgroundProcessIgnoringSigtermIsKilledAfterATimeout() throws Exception {
        RunResult result = sh(QUICK, "echo $$; (trap '' TERM; exec sleep 300) & sleep 300");
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals(List.of(), ProcessTable.awaitNoLiveMembers(group(output(result)), DYING));
    }

    @Test
    void anOrphanedBackgroundProcessIsKilledOnTimeoutToo() throws Exception {
        // Its parent exited, so it is no descendant of the command any more, but it stays in the group.
        // The portable runner misses it (see the testkit's ProcessBuilderRunnerTest).
        RunResult result = sh(QUICK, "echo $$; sh -c 'sleep 300 > /dev/null 2>&1 &'; exec sleep 300");
        assertInstanceOf(RunResult.TimedOut.class, result);
        assertEquals(List.of(), ProcessTable.awaitNoLiveMembers(group(output(result)), DYING));
    }

    @Test
    void backgroundProcessesDieWhenTheCommandExits() throws Exception {
        RunResult result = sh(Limits.DEFAULT, "echo $$; sleep 300 > /dev/null 2>&1 & echo done");
        int pgid = group(output(result));
        assertEquals("exited 0 [" + pgid + "\ndone\n]", Scenarios.describe(result));
        assertEquals(List.of(), ProcessTable.awaitNoLiveMembers(pgid, DYING));
    }

    @Test
    void aGrandchildHoldingThePipeIsKilledAfterThePipeGrace() throws Exception {
        RunResult result = sh(Limits.DEFAULT, "echo $$; sleep 300 & echo done");
        int pgid = group(output(result));
        assertEquals("exited 0 [" + pgid + "\ndone\n]", Scenarios.describe(result));
        assertEquals(List.of(), ProcessTable.awaitNoLiveMembers(pgid, DYING));
    }

    @Test
    void cancellationSendsSigintToTheGroupFirst() throws Exception {
        // The trap speaks only on SIGINT; the foreground sleep, in the same group, dies of it.
        assertEquals("interrupted [got INT\n]",
                Scenarios.describe(cancelWhenStarted(QUICK, "trap 'echo got INT; exit 7' INT")));
    }

    @Test
    void cancellationFollowsWithSigtermWhenSigintIsIgnored() throws Exception {
        // sh reports its foreground sleep "Terminated" before running the trap.
        assertEquals("interrupted [Terminated\ngot TERM\n]",
                Scenarios.describe(cancelWhenStarted(QUICK, "trap '' INT; trap 'echo got TERM; exit 9' TERM")));
    }

    @Test
    void cancellationEndsWithSigkill() throws Exception {
        assertEquals("interrupted []", Scenarios.describe(cancelWhenStarted(QUICK, "trap '' INT TERM")));
    }

    @Test
    void aGibibyteOfOutputIsDrainedInConstantMemory() throws Exception {
        // A 16 MiB heap: keeping, or even buffering, the output would run out of memory long before the end.
        Process p = new ProcessBuilder(ChildJvm.command(
                List.of("--enable-native-access=ALL-UNNAMED", "-Xmx16m"), "flat-memory", "1073741824"))
                .redirectErrorStream(true).start();
        String shown = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), shown);
        assertTrue(shown.startsWith("RESULT exited 0 total=1073741824 kept=2048 max-heap="), shown);
    }

    /**
     * Runs {@code <traps>; echo $$ > marker; sleep 300}, cancels once the sleep runs (a signal that came between
     * the marker and the sleep would reach the shell alone, which then waits for a sleep that never got it), and
     * returns the result.
     */
    private RunResult cancelWhenStarted(Limits limits, String traps) throws Exception {
        Path marker = dir.resolve("started");
        Cancellation cancellation = new Cancellation();
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> runner.run("/bin/sh",
                List.of("-c", traps + "; echo $$ > \"$0\"; sleep 300", marker.toString()),
                limits.withTimeout(Duration.ofSeconds(60)), cancellation));
        ProcessTable.awaitMember(marker, "sleep", STARTING);
        cancellation.cancel();
        return result.get(30, TimeUnit.SECONDS);
    }
}
