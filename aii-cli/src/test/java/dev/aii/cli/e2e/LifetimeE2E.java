package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.Programs;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Survivors;
import dev.aii.testkit.Wire;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing a command starts outlives aii (exec.md 9.6, cli.md 9.7): SIGTERM,
 * SIGHUP, a terminal that closes, Ctrl-Z and {@code kill %1}, and a stdout
 * whose reader left, with the real bin/aii and a command that leaves its
 * process group. What is left is counted by a marker in aii's environment,
 * which every process it starts inherits.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LifetimeE2E extends ServerFixture {

    /** A command that leaves one process in a session of its own and one in its group. */
    private static final String ESCAPING = ExecE2E.call("sh", "-c", "setsid sleep 300 & exec sleep 300");

    private Survivors mark() throws IOException {
        Survivors mark = Survivors.mark();
        String[] assignment = mark.assignment().split("=", 2);
        aii.env(assignment[0], assignment[1]).allow("sh\nsleep\n");
        return mark;
    }

    /** The pids of the marked processes named {@code name}, once there are {@code count}. */
    private static List<Long> await(Survivors mark, String name, int count) throws InterruptedException {
        long deadline = System.nanoTime() + AiiProcess.LIMIT.toNanos();
        while (true) {
            List<Long> found = new ArrayList<>();
            for (String live : mark.live()) {
                String[] f = live.split(" ", 2);
                if (f[1].equals(name)) {
                    found.add(Long.parseLong(f[0]));
                }
            }
            if (found.size() >= count) {
                return found;
            }
            assertTrue(System.nanoTime() < deadline, "expected " + count + " " + name + ", found " + mark.live());
            Thread.sleep(20);
        }
    }

    private static void kill(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder(Programs.path("kill"), "-" + signal, Long.toString(pid)).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pid);
    }

    /** The state letter of {@code pid} in /proc (R, S, T, Z, ...). */
    private static char state(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    private static void awaitState(long pid, char wanted) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + AiiProcess.LIMIT.toNanos();
        while (state(pid) != wanted) {
            assertTrue(System.nanoTime() < deadline, pid + " never reached state " + wanted + ": " + state(pid));
            Thread.sleep(20);
        }
    }

    /**
     * What {@code fg} does: SIGCONT to aii, and to the {@code script} that
     * holds its terminal, which stops itself when aii stops (util-linux does).
     */
    private static void fg(long java) throws IOException, InterruptedException {
        kill("CONT", java);
        long script = ProcessHandle.of(java).flatMap(ProcessHandle::parent).orElseThrow().pid();
        kill("CONT", script);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "HUP"})
    void sigtermOrSighupStopsTheCommandAndWhatLeftItsGroup(String signal) throws Exception {
        Survivors mark = mark();
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ESCAPING), Reply.text("never"));
        Running run = aii.start("-x", "sleep for me");
        List<Long> sleeps = await(mark, "sleep", 2);
        kill(signal, run.java().pid());
        Result r = run.awaitExit();
        assertEquals(signal.equals("TERM") ? 143 : 129, r.exit(), r.err());
        assertEquals("aii: $ sh -c 'setsid sleep 300 & exec sleep 300'\n", r.err());
        assertEquals("", r.out());
        assertEquals(List.of(), mark.awaitNone(Duration.ofSeconds(10)), "left running after SIG" + signal
                + " (the sleeps were " + sleeps + ")");
    }

    @Test
    void sigtermWhileTheModelThinksKeepsWhatCameAndExits143() throws Exception {
        Reply.Gate gate = new Reply.Gate();
        server.enqueue(Reply.stream().text("Hello, ").hold(gate).text("world").done());
        try {
            Running run = aii.start("hi");
            run.awaitStdout("Hello, ");
            kill("TERM", run.java().pid());
            assertEquals(new Result(143, "Hello, ", ""), run.awaitExit());
        } finally {
            gate.release();
        }
    }

    /** Runs aii on a terminal that closes once it shows {@code ready}; what {@link HangupMain} saw of its end. */
    private String hungUp(String ready, String... args) throws Exception {
        String aiiCommand = "exec " + String.join(" ", aii.command(args).stream().map(AiiProcess::quote).toList());
        String classes = Path.of("target/test-classes").toAbsolutePath().toString();
        Process hangup = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classes, HangupMain.class.getName(), aiiCommand, ready))
                .directory(aii.directory().toFile()).redirectErrorStream(true).start();
        assertTrue(hangup.waitFor(2, TimeUnit.MINUTES), "the terminal test did not end");
        return new String(hangup.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aTerminalThatClosesStopsTheCommandAndAiiExits129() throws Exception {
        Survivors mark = mark();
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ESCAPING), Reply.text("never"));
        assertEquals("exit 129\n", hungUp("aii: $ sh -c", "-x", "sleep for me"));
        assertEquals(List.of(), mark.awaitNone(Duration.ofSeconds(10)), "left running after the hangup");
    }

    @Test
    void aTerminalThatClosesAtThePromptOfInteractiveModeEndsItWith129() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals("exit 129\n", hungUp("> ", "-i", "-x"), "run " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void ctrlZStopsTheCommandWithAiiAndKillOfTheStoppedJobEndsBoth(boolean interactive) throws Exception {
        Survivors mark = mark();
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ESCAPING), Reply.text("never"));
        try (PtyDriver pty = aii.onTerminal(interactive ? List.of("-i", "-x") : List.of("-x", "sleep for me"))) {
            if (interactive) {
                // Ctrl-Z goes through the line editor's terminal then.
                pty.awaitOutput("> ", AiiProcess.LIMIT);
                pty.type("sleep for me\n");
            }
            List<Long> sleeps = await(mark, "sleep", 2);
            long java = await(mark, "java", 1).getFirst();
            pty.type("\u001a");
            awaitState(java, 'T');
            for (long sleep : sleeps) {
                awaitState(sleep, 'T');
            }
            // What the shell's kill %1 does to a stopped job.
            kill("TERM", java);
            fg(java);
            assertEquals(143, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals(List.of(), mark.awaitNone(Duration.ofSeconds(10)), "left running after Ctrl-Z and kill %1");
    }

    @Test
    void ctrlZThenFgContinuesTheCommandWhichDidNotRunMeanwhile() throws Exception {
        Survivors mark = mark();
        server.enqueue(Reply.toolCall(Wire.OPENAI, "run_command", ExecE2E.call("sleep", "2")),
                Reply.text("Slept."));
        try (PtyDriver pty = aii.onTerminal(List.of("-x", "sleep for me"))) {
            long sleep = await(mark, "sleep", 1).getFirst();
            long java = await(mark, "java", 1).getFirst();
            pty.type("\u001a");
            awaitState(java, 'T');
            awaitState(sleep, 'T');
            // Longer than the command would have run: it is still there, stopped.
            Thread.sleep(3_000);
            assertEquals('T', state(sleep));
            fg(java);
            pty.awaitOutput("Slept.", AiiProcess.LIMIT);
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals(List.of("exit 0\n"), server.lastChatRequest().toolResults());
    }

    /**
     * {@code aii … | head -c1}, twenty times: the reader takes one byte and
     * leaves; aii stops quietly with 141, plain and under {@code --json}.
     */
    @Test
    void aReaderThatLeavesEndsAiiQuietlyWith141() throws Exception {
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            boolean json = i % 2 == 1;
            Reply.Gate gate = new Reply.Gate();
            server.enqueue(Reply.stream().text("First line.\n").hold(gate).text("Second line.\n", "Third.\n").done());
            List<String> argv = aii.command(json ? new String[] {"-j", "count"} : new String[] {"count"});
            Path err = tmp.resolve("head." + i + ".err");
            Process p = new ProcessBuilder(argv).directory(aii.directory().toFile())
                    .redirectInput(new File("/dev/null")).redirectError(err.toFile()).start();
            try (InputStream out = p.getInputStream()) {
                assertEquals('F', out.read());
            }
            gate.release();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "aii did not end");
            outcomes.add(p.exitValue() + " " + Files.readString(err));
        }
        assertEquals(java.util.Collections.nCopies(20, "141 "), outcomes);
    }

    @Test
    void aReaderThatLeavesWhileACommandRunsStopsIt() throws Exception {
        Survivors mark = mark();
        server.enqueue(Reply.stream().text("Working.\n").toolCall("run_command", ESCAPING).done(),
                Reply.text("never"));
        Path err = tmp.resolve("cmd.err");
        Process p = new ProcessBuilder(aii.command("-x", "work")).directory(aii.directory().toFile())
                .redirectInput(new File("/dev/null")).redirectError(err.toFile()).start();
        try (InputStream out = p.getInputStream()) {
            assertEquals('W', out.read());
            await(mark, "sleep", 2);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "aii did not end");
        assertEquals(141, p.exitValue());
        assertEquals("aii: $ sh -c 'setsid sleep 300 & exec sleep 300'\n", Files.readString(err));
        assertEquals(List.of(), mark.awaitNone(Duration.ofSeconds(10)), "left running after the reader left");
    }
}
