package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.testkit.Await;
import dev.aii.testkit.Programs;
import dev.aii.testkit.Survivors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes that leave the command's process group or session, or lose their
 * parent, are stopped with the command on Linux, where aii is their
 * subreaper: each case counts the processes that carry the command's marker
 * (see {@link Survivors}) after the call, and first checks that the escape
 * really happened (a new session or group, a parent that is not the command).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PosixEscapeTest {

    private static final Limits QUICK = Limits.DEFAULT.withTimeout(Duration.ofSeconds(3))
            .withKillGrace(Duration.ofMillis(500));
    private static final Duration DYING = Duration.ofSeconds(10);
    private static final Duration STARTING = Duration.ofSeconds(30);

    private final PosixCommandRunner runner = new PosixCommandRunner();
    private final Survivors mark = Survivors.mark();

    @TempDir
    Path dir;

    /** Runs {@code sh -c script} with the marker; {@code $0} is the test's directory. */
    private RunResult sh(Limits limits, String script) {
        return runner.run(Programs.path("env"), mark.command("sh", "-c", script, dir.toString()), limits,
                new Cancellation());
    }

    /** {@code <pid> <pgrp> <session>} of the process that wrote {@code file}. */
    private List<Integer> ids(String file) throws Exception {
        Path path = dir.resolve(file);
        Await.file(path, STARTING);
        String text = "";
        for (int i = 0; i < 1000 && !text.endsWith("\n"); i++) {
            text = Files.readString(path);
            Thread.sleep(10);
        }
        return java.util.Arrays.stream(text.strip().split(" ")).map(Integer::valueOf).toList();
    }

    /** Shell text that writes {@code <pid> <pgrp> <session>} of the shell running it into {@code $0/<file>}. */
    private static String writeIds(String file) {
        return "set -- $(cut -d ')' -f 2 /proc/$$/stat); echo \"$$ $3 $4\" > \"$0/" + file + ".tmp\";"
                + " mv \"$0/" + file + ".tmp\" \"$0/" + file + "\"";
    }

    private void assertNothingSurvives() throws InterruptedException {
        assertEquals(List.of(), mark.awaitNone(DYING));
    }

    /**
     * Binding the C library reads ahead what the first command reads from
     * {@code /proc}, but the JVM becomes the subreaper only with the first
     * command (as the kernel reports it, {@code PR_GET_CHILD_SUBREAPER}), so
     * that until aii runs a command, a process orphaned under the JVM goes
     * where it would without aii.
     */
    @Test
    void theJvmBecomesTheSubreaperWithTheFirstCommandNotWithBinding() throws Exception {
        Process p = new ProcessBuilder(ChildJvm.withNativeAccess("subreaper")).redirectErrorStream(true).start();
        String shown = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), shown);
        assertTrue(shown.contains("SUBREAPER AT START false\n"), shown);
        assertTrue(shown.contains("AVAILABILITY Available\n"), shown);
        assertTrue(shown.contains("SUBREAPER AFTER BINDING false\n"), shown);
        assertTrue(shown.contains("RESULT exited 0 []\n"), shown);
        assertTrue(shown.contains("SUBREAPER AFTER A COMMAND true\n"), shown);
    }

    @Test
    void aSetsidBackgroundProcessDiesWhenTheCommandEnds() throws Exception {
        // $0 is lost across setsid's exec of sh, so the directory goes in as the inner $0 again.
        RunResult result = sh(Limits.DEFAULT, writeIds("cmd") + "; setsid sh -c '" + writeIds("escaped").replace("'", "'\\''")
                + "; exec sleep 300' \"$0\" > /dev/null 2>&1 & while [ ! -e \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        List<Integer> command = ids("cmd");
        List<Integer> escaped = ids("escaped");
        assertNotEquals(command.get(2), escaped.get(2), "the background process kept the command's session");
        assertNothingSurvives();
    }

    @Test
    void aForkedSetsidProcessDiesWhenTheCommandEnds() throws Exception {
        // setsid -f forks and its parent exits at once: the process is an orphan from its first moment.
        RunResult result = sh(Limits.DEFAULT, "setsid -f sh -c 'echo $$ > \"$0/escaped\"; exec sleep 300' \"$0\";"
                + " while [ ! -s \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void aProcessThatMadeItsOwnGroupWithPerlDiesWhenTheCommandEnds() throws Exception {
        RunResult result = sh(Limits.DEFAULT, writeIds("cmd") + "; perl -e 'setpgrp(0, 0); open(F, \">\", \"$ARGV[0]/escaped\");"
                + " print F getpgrp(), \"\\n\"; close(F); sleep 300' \"$0\" > /dev/null 2>&1 &"
                + " while [ ! -s \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNotEquals(ids("cmd").get(1), Integer.valueOf(Files.readString(dir.resolve("escaped")).strip()));
        assertNothingSurvives();
    }

    @Test
    void aProcessThatMadeItsOwnGroupWithPythonDiesWhenTheCommandEnds() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "needs /usr/bin/python3");
        RunResult result = sh(Limits.DEFAULT, "python3 -c 'import os, sys, time; os.setpgid(0, 0);"
                + " open(sys.argv[1] + \"/escaped\", \"w\").write(str(os.getpgrp()));"
                + " time.sleep(300)' \"$0\" > /dev/null 2>&1 &"
                + " while [ ! -s \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void aDaemonThatForkedTwiceAndLeftTheSessionDiesWhenTheCommandEnds() throws Exception {
        // The classic daemon: fork, setsid, fork again, the middle process exits; the last one has no parent.
        RunResult result = sh(Limits.DEFAULT, "perl -MPOSIX -e 'if (fork() == 0) { POSIX::setsid(); my $m = $$;"
                + " if (fork() == 0) { select(undef, undef, undef, 0.01) while getppid() == $m;"
                + " open(F, \">\", \"$ARGV[0]/escaped\"); print F getppid();"
                + " close(F); sleep 300 } POSIX::_exit(0) } wait' \"$0\" > /dev/null 2>&1;"
                + " while [ ! -s \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        // Its parent is now the JVM: the subreaper adopted it.
        assertEquals(String.valueOf(ProcessHandle.current().pid()), Files.readString(dir.resolve("escaped")).strip());
        assertNothingSurvives();
    }

    @Test
    void anOrphanThatStayedInTheSessionDiesWhenTheCommandEnds() throws Exception {
        RunResult result = sh(Limits.DEFAULT, "sh -c 'perl -e \"setpgrp(0, 0); sleep 300\" > /dev/null 2>&1 &'; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void whatADetachedProcessStartedInItsOwnSessionDiesToo() throws Exception {
        RunResult result = sh(Limits.DEFAULT, "setsid -f sh -c '(sleep 300 &); perl -e \"setpgrp(0, 0); sleep 300\" &"
                + " sleep 300 & : > \"$0/escaped\"; wait' \"$0\" > /dev/null 2>&1;"
                + " while [ ! -e \"$0/escaped\" ]; do sleep 0.05; done; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void aForkLoopThatLeftTheSessionIsStoppedToo() throws Exception {
        RunResult result = sh(Limits.DEFAULT, "setsid -f sh -c ': > \"$0/escaped\"; while :; do sleep 300 & sleep 0.01; done'"
                + " \"$0\" > /dev/null 2>&1; while [ ! -e \"$0/escaped\" ]; do sleep 0.05; done; sleep 0.5; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void aLoopThatDetachesEveryChildIntoASessionOfItsOwnIsStopped() throws Exception {
        // Each child is an orphan in a new session the moment it starts: only the subreaper sees them.
        RunResult result = sh(Limits.DEFAULT, "setsid -f sh -c ': > \"$0/escaped\"; while :; do setsid -f sleep 300;"
                + " sleep 0.01; done' \"$0\" > /dev/null 2>&1; while [ ! -e \"$0/escaped\" ]; do sleep 0.05; done;"
                + " sleep 0.5; echo done");
        assertEquals("exited 0 [done\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void aTimeoutStopsTheProcessesThatLeftTheGroup() throws Exception {
        RunResult result = sh(QUICK, "setsid -f sleep 300; perl -e 'setpgrp(0, 0); sleep 300' > /dev/null 2>&1 &"
                + " echo started; exec sleep 300");
        assertEquals("timed-out [started\n]", Scenarios.describe(result));
        assertNothingSurvives();
    }

    @Test
    void cancellationSignalsTheProcessesThatLeftTheGroupBeforeKillingThem() throws Exception {
        // The command ignores SIGINT and SIGTERM, so the whole sequence runs; the escaped shell notes each signal
        // in a file, which shows that SIGINT and SIGTERM reached it, a grace apart, before SIGKILL ended it.
        Cancellation cancellation = new Cancellation();
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> runner.run(Programs.path("env"),
                mark.command("sh", "-c", "setsid -f sh -c 'trap \"echo INT >> \\\"$0/got\\\"\" INT;"
                        + " trap \"echo TERM >> \\\"$0/got\\\"\" TERM; : > \"$0/escaped\"; while :; do sleep 0.1; done'"
                        + " \"$0\" > /dev/null 2>&1; trap '' INT TERM; while :; do sleep 0.1; done", dir.toString()),
                QUICK.withTimeout(Duration.ofSeconds(60)), cancellation));
        Await.file(dir.resolve("escaped"), STARTING);
        cancellation.cancel();
        assertEquals("interrupted []", Scenarios.describe(run.get(60, TimeUnit.SECONDS)));
        assertNothingSurvives();
        assertEquals("INT\nTERM\n", Files.readString(dir.resolve("got")));
    }

    @Test
    void processesTheJvmStartedItselfAreLeftAloneAndTheJdkStillReapsThem() throws Exception {
        // One started before the command in a session of its own, one started while the command runs: neither is
        // the command's, and the JDK must still be the one to collect their exit statuses.
        Process before = new ProcessBuilder(Programs.path("setsid"), Programs.path("sleep"), "300").start();
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> sh(Limits.DEFAULT,
                "setsid -f sleep 300; : > \"$0/started\"; while [ ! -e \"$0/go\" ]; do sleep 0.05; done; echo done"));
        Await.file(dir.resolve("started"), STARTING);
        Process during = new ProcessBuilder(Programs.path("sleep"), "300").start();
        Files.writeString(dir.resolve("go"), "");
        assertEquals("exited 0 [done\n]", Scenarios.describe(run.get(60, TimeUnit.SECONDS)));
        assertNothingSurvives();
        try {
            assertTrue(before.isAlive() && during.isAlive(), "a process the JVM started was stopped");
        } finally {
            before.destroy();
            during.destroy();
        }
        assertTrue(before.waitFor(20, TimeUnit.SECONDS) && during.waitFor(20, TimeUnit.SECONDS));
        assertEquals(List.of(143, 143), List.of(before.exitValue(), during.exitValue()));
    }

    @Test
    void theJvmIsTheSubreaper() {
        assertTrue(Posix.lifetimes().adopting(), "prctl(PR_SET_CHILD_SUBREAPER) failed");
    }
}
