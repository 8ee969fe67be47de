package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.AllowFile;
import dev.aii.config.ChildJvm;
import dev.aii.policy.Builtins;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** "Always" while another process holds the allow file's lock: the rule applies, the user is told, Ctrl-C works. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RunCommandToolLockTest {

    @TempDir
    Path dir;

    private AllowFile file;
    private Process holder;

    @BeforeEach
    void holdTheLock() throws Exception {
        file = AllowFile.at(dir.resolve("config/allow"));
        Files.createDirectories(file.path().getParent());
        Files.writeString(file.path(), "ls\n");
        holder = ChildJvm.start(List.of(), "hold", file.path().resolveSibling(".allow.lock").toString());
        assertEquals("locked", new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8)).readLine());
    }

    @AfterEach
    void release() {
        holder.destroyForcibly();
    }

    @Test
    void alwaysAgainstAHeldLockRunsTheCommandSaysSoAndTheRuleLastsTheRun() throws Exception {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        assertEquals("exit 0\n", f.call("touch", made.toString()));
        assertEquals("aii: warning: could not save rule = touch " + made + ": " + file.path()
                + " is locked by another process\naii: $ touch " + made + "\n", f.stderr());
        assertEquals("exit 0\n", f.call("touch", made.toString()));
        assertEquals(1, f.terminal.opened(), "the rule did not apply for the rest of the run");
        assertEquals("ls\n", Files.readString(file.path()));
    }

    @Test
    void ctrlCWhileWaitingForTheLockEndsTheWaitAndRunsNothing() throws Exception {
        Path made = dir.resolve("made");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        CompletableFuture<String> call = new CompletableFuture<>();
        Thread caller = Thread.ofPlatform().daemon().start(() -> call.complete(f.call("touch", made.toString())));
        awaitWaitingForTheLock(caller);
        long pressed = System.nanoTime();
        f.answer.interrupt();
        assertEquals("Terminated: interrupted by the user.\n", call.get(30, TimeUnit.SECONDS));
        System.out.println("FIGURE Ctrl-C ended the wait for the lock after "
                + (System.nanoTime() - pressed) / 1_000_000 + " ms");
        assertEquals("aii: warning: could not save rule = touch " + made + ": " + file.path()
                + " is locked by another process\naii: $ touch " + made + "\n", f.stderr());
        assertFalse(Files.exists(made));
        assertEquals("ls\n", Files.readString(file.path()));
    }

    /** Until the calling thread is inside the wait for the lock (so the interrupt is not taken at the prompt). */
    private static void awaitWaitingForTheLock(Thread caller) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (List.of(caller.getStackTrace()).stream().noneMatch(e -> e.getClassName().endsWith(".LockWait"))) {
            assertTrue(System.nanoTime() < deadline, "the call never waited for the lock");
            Thread.sleep(10);
        }
    }
}
