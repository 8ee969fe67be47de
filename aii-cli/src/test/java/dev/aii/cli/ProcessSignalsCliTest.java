package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.process.ProcessSignals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM, SIGHUP, Ctrl-Z and a stdout whose reader left, while an answer
 * runs (cli.md 9.7, exec.md 9.6); the signals come through the run's
 * {@link ProcessSignals} and {@link CliHarness.ManualInterrupts}.
 */
class ProcessSignalsCliTest {

    private static final String SLEEP = "{\"executable\":\"sleep\",\"arguments\":[\"30\"]}";

    @TempDir
    Path home;

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).stdinTerminal();
    }

    private void allowSleep() throws Exception {
        Path allow = home.resolve(".config/aii/allow");
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "sleep\n");
    }

    /** Sends {@code code}'s signal once {@code ready} holds, from another thread, as the JVM's signal thread would. */
    private static Thread signalWhen(CliHarness cli, int code, Ready ready) {
        return Thread.ofPlatform().daemon().start(() -> {
            try {
                ready.await();
            } catch (Exception e) {
                return;
            }
            cli.signals.signalled(code);
        });
    }

    @FunctionalInterface
    interface Ready {
        void await() throws Exception;
    }

    private static void logged(CliHarness cli, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cli.err().contains(line)) {
            assertTrue(System.nanoTime() < deadline, "never logged: " + line);
            Thread.sleep(10);
        }
    }

    @Test
    void sigtermDuringAnAnswerWritesWhatCameAndExits143() throws Exception {
        ScriptedModel model = new ScriptedModel().answer(new ScriptedModel.Step.Text("Hello, "),
                new ScriptedModel.Step.AwaitCancel(), new ScriptedModel.Step.Text("never"));
        CliHarness cli = cli(model);
        Thread signal = signalWhen(cli, ProcessSignals.TERMINATED_EXIT, () -> model.waitingForCancel.await());
        assertEquals(143, cli.run("hi"));
        signal.join(20_000);
        assertEquals("Hello, ", cli.out());
        assertEquals("", cli.err());
        assertEquals(List.of(143), cli.signalExits);
    }

    @Test
    void sighupInInteractiveModeEndsTheSessionWith129() throws Exception {
        ScriptedModel model = new ScriptedModel()
                .answer(new ScriptedModel.Step.Text("Thinking"), new ScriptedModel.Step.AwaitCancel())
                .answerText("second answer");
        CliHarness cli = new CliHarness(home).model(model).stdin("first\nsecond\n");
        Thread signal = signalWhen(cli, ProcessSignals.HANGUP_EXIT, () -> model.waitingForCancel.await());
        assertEquals(129, cli.run("-i"));
        signal.join(20_000);
        assertEquals(List.of("first"), model.prompts);
        assertFalse(cli.out().endsWith(Interactive.PROMPT), "prompted again: " + cli.out());
        assertEquals(List.of(129), cli.signalExits);
    }

    @Test
    void sigtermWhileACommandRunsTerminatesItAndExits143() throws Exception {
        allowSleep();
        ScriptedModel model = new ScriptedModel()
                .answer(new ScriptedModel.Step.CallTool(SLEEP), new ScriptedModel.Step.Text("never"));
        CliHarness cli = cli(model);
        Thread signal = signalWhen(cli, ProcessSignals.TERMINATED_EXIT, () -> logged(cli, "aii: $ sleep 30\n"));
        assertEquals(143, cli.run("-x", "sleep"));
        signal.join(20_000);
        assertEquals(1, cli.terminations.get(), "the exec host was not told to end its commands");
        assertEquals(List.of("Terminated: interrupted by the user.\n"), model.toolResults);
        assertEquals("", cli.out());
        assertEquals("aii: $ sleep 30\n", cli.err());
    }

    @Test
    void aSecondSignalChangesNothing() throws Exception {
        ScriptedModel model = new ScriptedModel().answer(new ScriptedModel.Step.AwaitCancel());
        CliHarness cli = cli(model);
        Thread first = signalWhen(cli, ProcessSignals.HANGUP_EXIT, () -> model.waitingForCancel.await());
        assertEquals(129, cli.run("hi"));
        first.join(20_000);
        cli.signals.signalled(ProcessSignals.TERMINATED_EXIT);
        assertEquals(List.of(129), cli.signalExits);
        assertEquals(129, cli.signals.exitCode().getAsInt());
    }

    @Test
    void ctrlZWithExecStopsTheCommandsWithAii() throws Exception {
        allowSleep();
        ScriptedModel model = new ScriptedModel()
                .answer(new ScriptedModel.Step.CallTool(SLEEP), new ScriptedModel.Step.Text("done"));
        CliHarness cli = cli(model);
        Thread keys = Thread.ofPlatform().daemon().start(() -> {
            try {
                logged(cli, "aii: $ sleep 30\n");
            } catch (InterruptedException e) {
                return;
            }
            assertTrue(cli.interrupts.suspend(), "Ctrl-Z was not taken over while the command ran");
            cli.interrupts.fire();
        });
        assertEquals(130, cli.run("-x", "sleep"));
        keys.join(20_000);
        assertEquals(1, cli.suspensions.get());
        assertFalse(cli.interrupts.suspend(), "Ctrl-Z stays taken over after the answer");
    }

    @Test
    void withoutExecCtrlZIsLeftAsItIs() throws Exception {
        ScriptedModel model = new ScriptedModel().answer(new ScriptedModel.Step.AwaitCancel());
        CliHarness cli = cli(model);
        Thread keys = Thread.ofPlatform().daemon().start(() -> {
            try {
                model.waitingForCancel.await();
            } catch (InterruptedException e) {
                return;
            }
            assertFalse(cli.interrupts.suspend(), "Ctrl-Z was taken over without commands to stop");
            cli.interrupts.fire();
        });
        assertEquals(130, cli.run("hi"));
        keys.join(20_000);
        assertEquals(0, cli.suspensions.get());
    }

    @Test
    void aReaderThatLeavesWhileACommandRunsStopsItAndExits141Quietly() throws Exception {
        allowSleep();
        for (boolean json : List.of(false, true)) {
            ScriptedModel model = new ScriptedModel()
                    .answer(new ScriptedModel.Step.CallTool(SLEEP), new ScriptedModel.Step.Text("never"));
            CliHarness cli = cli(model).watchingStdout();
            Thread reader = Thread.ofPlatform().daemon().start(() -> {
                try {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    while (model.toolResults.isEmpty() && !processRuns("sleep") && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                cli.stdoutReaderGone.countDown();
            });
            long start = System.nanoTime();
            assertEquals(141, json ? cli.run("-x", "-j", "sleep") : cli.run("-x", "sleep"));
            reader.join(20_000);
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 25, "the command ran on");
            assertEquals(List.of("Terminated: interrupted by the user.\n"), model.toolResults);
            assertEquals("", cli.out());
            assertEquals(json ? "" : "aii: $ sleep 30\n", cli.err());
        }
    }

    /** Whether a child of this JVM named {@code name} runs (the command under the portable runner). */
    private static boolean processRuns(String name) {
        return ProcessHandle.current().descendants()
                .anyMatch(p -> p.info().command().map(c -> c.endsWith("/" + name)).orElse(false));
    }
}
