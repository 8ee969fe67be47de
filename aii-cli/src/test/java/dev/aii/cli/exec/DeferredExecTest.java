package dev.aii.cli.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.Limits;
import dev.aii.exec.RunResult;
import dev.aii.exec.Terminal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The -x host that waits for the bound C library only where it is needed:
 * nothing at startup blocks on a binding that has not finished, every use
 * that needs the host gets the made one, and the fallback warning comes once,
 * at startup when it was known then, else at the first tool call.
 */
@Timeout(20)
class DeferredExecTest {

    /** A host whose calls are recorded. */
    private static final class Recorded implements ExecHost {
        private final List<String> calls = new ArrayList<>();
        private final Optional<String> warning;
        private final Optional<Runnable> suspender;

        Recorded(Optional<String> warning, Optional<Runnable> suspender) {
            this.warning = warning;
            this.suspender = suspender;
        }

        private void record(String call) {
            synchronized (calls) {
                calls.add(call);
            }
        }

        @Override
        public CommandRunner runner() {
            return new CommandRunner() {
                @Override
                public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                                     Cancellation cancellation) {
                    record("run " + path + " " + arguments + " " + environment);
                    return new RunResult.LaunchFailed("recorded");
                }
            };
        }

        @Override
        public Terminal terminal() {
            return () -> {
                record("open");
                throw new IOException("no terminal here");
            };
        }

        @Override
        public Optional<String> fallbackWarning() {
            return warning;
        }

        @Override
        public void terminateCommands() {
            record("terminate");
        }

        @Override
        public Optional<Runnable> suspendWithCommands() {
            return suspender;
        }

        @Override
        public boolean awaitStdoutReaderGone() {
            record("watch");
            return true;
        }

        @Override
        public void stopWatchingStdout() {
            record("stop watching");
        }

        List<String> calls() {
            synchronized (calls) {
                return List.copyOf(calls);
            }
        }
    }

    /** A supply whose host is made, on the prepare thread, only once {@code release} counts down. */
    private static ExecSupply held(CountDownLatch release, ExecHost host) {
        ExecSupply supply = new ExecSupply(() -> {
            try {
                assertTrue(release.await(15, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return host;
        });
        supply.prepare();
        return supply;
    }

    @Test
    void whatStartupAsksForNeverWaitsForTheBinding() {
        CountDownLatch release = new CountDownLatch(1);
        Recorded host = new Recorded(Optional.empty(), Optional.empty());
        ExecSupply supply = held(release, host);
        List<String> warnings = new ArrayList<>();
        DeferredExec exec = supply.deferred(Optional.empty(), warnings::add);
        // all of this while the host is still being made (the latch holds it): none of it may block
        assertEquals(Optional.empty(), exec.fallbackWarning());
        assertTrue(exec.suspendWithCommands().isPresent(), "binding may give a runner that stops its commands");
        exec.terminateCommands();
        assertEquals(Optional.empty(), supply.ifMade());
        assertSame(exec, supply.deferred(Optional.empty(), warnings::add), "one per supply");
        assertEquals(List.of(), host.calls(), "no command can run before the host exists: nothing to terminate");

        release.countDown();
        assertSame(host, exec.settle());
        exec.terminateCommands();
        assertEquals(List.of("terminate"), host.calls());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aWarningOnlyBindingCouldTellComesOnceAtTheFirstToolCall() {
        Recorded host = new Recorded(Optional.of("native access unavailable (self-check failed: x)"), Optional.empty());
        CountDownLatch release = new CountDownLatch(1);
        ExecSupply supply = held(release, host);
        List<String> warnings = new ArrayList<>();
        DeferredExec exec = supply.deferred(Optional.empty(), warnings::add);
        assertEquals(Optional.empty(), exec.fallbackWarning(), "not known at startup");
        release.countDown();
        supply.settle();
        supply.settle();
        assertEquals(List.of("native access unavailable (self-check failed: x)"), warnings);
        RunResult result = exec.runner().run("/bin/true", List.of(), Limits.DEFAULT, new Cancellation());
        assertEquals("recorded", assertInstanceOf(RunResult.LaunchFailed.class, result).reason());
        assertEquals(1, warnings.size(), "still once");
    }

    @Test
    void aWarningKnownAtStartupIsGivenThereAndNotAgain() {
        String warning = "native access unavailable (the JVM was started without --enable-native-access=dev.aii.ffm)";
        Recorded host = new Recorded(Optional.of(warning), Optional.empty());
        ExecSupply supply = held(new CountDownLatch(0), host);
        List<String> warnings = new ArrayList<>();
        DeferredExec exec = supply.deferred(Optional.of(warning), warnings::add);
        assertEquals(Optional.of(warning), exec.fallbackWarning());
        assertEquals(Optional.empty(), exec.suspendWithCommands(), "Ctrl-Z stops aii alone, as without -x");
        supply.settle();
        assertEquals(List.of(), warnings, "the caller gave it at startup");
    }

    @Test
    void theRunnerAndTheTerminalAreTheMadeHostsWithTheEnvironmentTheyAreGiven() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Recorded host = new Recorded(Optional.empty(), Optional.empty());
        DeferredExec exec = held(release, host).deferred(Optional.empty(), w -> { });
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> exec.runner().run("/usr/bin/git",
                List.of("log"), Map.of("GIT_CONFIG_COUNT", "1"), Limits.DEFAULT, new Cancellation()));
        Thread.sleep(50);
        assertFalse(run.isDone(), "a command waits for the host");
        release.countDown();
        assertEquals("recorded",
                assertInstanceOf(RunResult.LaunchFailed.class, run.get(10, TimeUnit.SECONDS)).reason());
        IOException none = assertThrows(IOException.class, () -> exec.terminal().open());
        assertEquals("no terminal here", none.getMessage());
        assertEquals(List.of("run /usr/bin/git [log] {GIT_CONFIG_COUNT=1}", "open"), host.calls());
    }

    @Test
    void ctrlZWaitsForTheHostAndStopsTheCommandsItsRunnerCanStop() throws Exception {
        AtomicInteger stops = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        Recorded host = new Recorded(Optional.empty(), Optional.of(stops::incrementAndGet));
        DeferredExec exec = held(release, host).deferred(Optional.empty(), w -> { });
        Runnable suspend = exec.suspendWithCommands().orElseThrow();
        CompletableFuture<Void> pressed = CompletableFuture.runAsync(suspend);
        Thread.sleep(50);
        assertEquals(0, stops.get());
        release.countDown();
        pressed.get(10, TimeUnit.SECONDS);
        assertEquals(1, stops.get());
    }

    @Test
    void aWatchOfStdoutStoppedBeforeTheHostIsMadeNeverStarts() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Recorded host = new Recorded(Optional.empty(), Optional.empty());
        DeferredExec exec = held(release, host).deferred(Optional.empty(), w -> { });
        CompletableFuture<Boolean> watch = CompletableFuture.supplyAsync(exec::awaitStdoutReaderGone);
        Thread.sleep(50);
        exec.stopWatchingStdout();
        release.countDown();
        assertFalse(watch.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(), host.calls(), "neither watched nor told to stop a watch it never began");
    }

    @Test
    void aWatchThatBeganIsStoppedOnTheMadeHost() throws Exception {
        Recorded host = new Recorded(Optional.empty(), Optional.empty());
        ExecSupply supply = held(new CountDownLatch(0), host);
        DeferredExec exec = supply.deferred(Optional.empty(), w -> { });
        assertTrue(exec.awaitStdoutReaderGone());
        exec.stopWatchingStdout();
        assertEquals(List.of("watch", "stop watching"), host.calls());
    }
}
