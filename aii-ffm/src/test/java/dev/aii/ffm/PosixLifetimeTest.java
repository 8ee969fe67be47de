package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.ffm.posix.ProcStat;
import dev.aii.testkit.Await;
import dev.aii.testkit.Programs;
import dev.aii.testkit.Survivors;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifetime of commands beyond one call: suspended with aii (Ctrl-Z) and
 * continued with it, their time limit standing still meanwhile but enforced
 * at once when it passed while aii was stopped some other way; and stopped by
 * the shutdown hook when the JVM exits, by {@code System.exit} or SIGTERM.
 * Counted with real processes and {@code /proc} (Linux).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PosixLifetimeTest {

    private static final Duration MAX = Duration.ofSeconds(60);
    private static final Duration DYING = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void suspendedCommandsStandStillWithWhatTheyDetachedAndTheirLimitWaitsForThem() throws Exception {
        PosixCommandRunner runner = new PosixCommandRunner();
        Survivors mark = Survivors.mark();
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> runner.run(Programs.path("env"),
                mark.command("sh", "-c", "echo $$ > \"$0/leader\"; setsid -f sh -c 'echo $$ > \"$0/escaped.tmp\";"
                        + " mv \"$0/escaped.tmp\" \"$0/escaped\"; exec sleep 300' \"$0\"; sleep 1; echo done",
                        dir.toString()),
                Limits.DEFAULT.withTimeout(Duration.ofSeconds(3)), new Cancellation()));
        int escaped = pid("escaped");
        int leader = pid("leader");
        // Not while the shell forks: a parent in vfork waits uninterruptibly (state D) for its stopped child.
        ProcessTable.awaitMember(dir.resolve("leader"), "sleep", MAX);
        runner.suspendCommands();
        try {
            awaitState(leader, 'T');
            awaitState(escaped, 'T');
            // Longer than the whole time limit: counted, it would end the command as soon as it continues.
            Thread.sleep(4000);
            assertFalse(run.isDone(), "the command ended while it was suspended");
            assertEquals('T', state(leader));
        } finally {
            runner.resumeCommands();
        }
        assertEquals("exited 0 [done\n]", Scenarios.describe(run.get(MAX.toSeconds(), TimeUnit.SECONDS)));
        assertEquals(List.of(), mark.awaitNone(DYING));
    }

    @Test
    void ctrlZStopsTheCommandWithAiiAndContinuesItWithoutCountingTheStop() throws Exception {
        try (Child child = Child.start(ChildJvm.withNativeAccess("ctrl-z", dir.toString()))) {
            child.await("STOPPING");
            awaitState((int) child.pid(), 'T');
            awaitState(pid("leader"), 'T');
            awaitState(pid("escaped"), 'T');
            // The command has 4 s and needs 2: stopped for 5 s, it must still finish.
            Thread.sleep(5000);
            assertEquals('T', state(pid("leader")));
            kill("-CONT", child.pid());
            child.await("CONTINUED");
            assertEquals("RESULT exited 0 [done", child.await("RESULT "));
            assertEquals(0, child.exit());
        }
    }

    @Test
    void aLimitThatPassedWhileAiiWasStoppedIsEnforcedAsSoonAsItRunsAgain() throws Exception {
        // Stopped from outside (kill -STOP), aii cannot stop the command: it runs on, past its 2 s.
        try (Child child = Child.start(ChildJvm.withNativeAccess("jvm-stopped", dir.toString()))) {
            child.await("RUNNING");
            kill("-STOP", child.pid());
            awaitState((int) child.pid(), 'T');
            Thread.sleep(4000);
            assertTrue("RSD".indexOf(state(pid("leader"))) >= 0, "the command did not run on: " + state(pid("leader")));
            long resumed = System.nanoTime();
            kill("-CONT", child.pid());
            assertEquals("RESULT timed-out []", child.await("RESULT "));
            System.out.println("FIGURE timed-out result " + (System.nanoTime() - resumed) / 1_000_000
                    + " ms after the JVM was continued (kill grace 1 s)");
            assertEquals(0, child.exit());
        }
    }

    @Test
    void systemExitWhileACommandRunsLeavesNothingOfIt() throws Exception {
        assertExitStopsEverything("exit", 0);
    }

    @Test
    void sigtermToTheJvmWhileACommandRunsLeavesNothingOfIt() throws Exception {
        assertExitStopsEverything("wait", 143);
    }

    private void assertExitStopsEverything(String how, int status) throws Exception {
        Survivors mark = Survivors.mark();
        try (Child child = Child.start(ChildJvm.withNativeAccess("exit-while-running", dir.toString(),
                mark.assignment(), how))) {
            child.await("RUNNING");
            // sh (exec'd into sleep), its background sleep and perl, and the detached sleep; the two
            // in the background may still be on their way.
            List<String> running = mark.live();
            long end = System.nanoTime() + MAX.toNanos();
            while (running.size() < 4 && System.nanoTime() < end) {
                Thread.sleep(10);
                running = mark.live();
            }
            assertTrue(running.size() >= 4, "the command's processes did not start: " + running);
            if (how.equals("wait")) {
                kill("-TERM", child.pid());
            } else {
                Files.writeString(dir.resolve("go"), "");
            }
            assertEquals(status, child.exit());
            List<String> left = mark.awaitNone(DYING);
            System.out.println("FIGURE " + how + ": " + running.size() + " marked processes before, " + left.size()
                    + " after");
            assertEquals(List.of(), left);
        }
    }

    private int pid(String file) throws Exception {
        Path path = dir.resolve(file);
        Await.file(path, MAX);
        String text = Files.readString(path);
        for (int i = 0; i < 500 && !text.endsWith("\n"); i++) {
            Thread.sleep(10);
            text = Files.readString(path);
        }
        return Integer.parseInt(text.strip());
    }

    private static char state(int pid) {
        return ProcStat.of(pid).map(ProcStat::state).orElse('?');
    }

    private static void awaitState(int pid, char state) throws InterruptedException {
        long end = System.nanoTime() + MAX.toNanos();
        while (state(pid) != state) {
            if (System.nanoTime() > end) {
                String stat;
                try {
                    stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                } catch (IOException e) {
                    stat = e.toString();
                }
                throw new AssertionError("process " + pid + " is " + state(pid) + ", not " + state + ": " + stat);
            }
            Thread.sleep(10);
        }
    }

    private static void kill(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder(Programs.path("kill"), signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(MAX.toSeconds(), TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue());
    }

    /** A second JVM whose output lines the test waits for. */
    private record Child(Process process, BlockingQueue<String> lines) implements AutoCloseable {

        static Child start(List<String> command) throws IOException {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("READ FAILED " + e);
                }
            });
            return new Child(p, lines);
        }

        long pid() {
            return process.pid();
        }

        /** The first line starting with {@code prefix}; the lines before it are dropped. */
        String await(String prefix) throws InterruptedException {
            long end = System.nanoTime() + MAX.toNanos();
            while (System.nanoTime() < end) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new AssertionError("no line starting with " + prefix + " within " + MAX);
        }

        int exit() throws InterruptedException {
            assertTrue(process.waitFor(MAX.toSeconds(), TimeUnit.SECONDS), "the JVM did not exit");
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
