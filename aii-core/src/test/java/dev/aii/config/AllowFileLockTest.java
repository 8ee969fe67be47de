package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Rule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Always" against a lock file that a second JVM holds as aii does: the wait
 * is bounded, can be ended, and takes the lock when it is freed; nothing is
 * written without it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllowFileLockTest {

    private static final String BEFORE = "ls\n";

    @TempDir
    Path home;

    private AllowFile file;
    private Process holder;
    private BufferedReader holderOut;

    @BeforeEach
    void holdTheLock() throws IOException {
        file = AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
        Files.createDirectories(file.path().getParent());
        Files.writeString(file.path(), BEFORE);
        holder = ChildJvm.start(List.of(), "hold", AllowFileWriter.lockFile(file.path()).toString());
        holderOut = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", holderOut.readLine());
    }

    @AfterEach
    void release() {
        holder.destroyForcibly();
    }

    private String lockedMessage() {
        return file.path() + " is locked by another process";
    }

    @Test
    void aLockHeldByAnotherProcessIsWaitedForFiveSecondsThenTheRuleIsNotSaved() throws Exception {
        long start = System.nanoTime();
        AllowFile.LockedException e = assertThrows(AllowFile.LockedException.class,
                () -> file.add(Rule.of("git", "log")));
        long took = (System.nanoTime() - start) / 1_000_000;
        System.out.println("FIGURE always against a held lock gave up after " + took + " ms");
        assertEquals(lockedMessage(), e.getMessage());
        assertEquals(BEFORE, Files.readString(file.path()));
    }

    @Test
    void endingTheWaitGivesUpAtOnce() throws Exception {
        AtomicBoolean ctrlC = new AtomicBoolean();
        CompletableFuture<Long> pressed = CompletableFuture.supplyAsync(() -> {
            sleep(300);
            ctrlC.set(true);
            return System.nanoTime();
        });
        AllowFile.LockedException e = assertThrows(AllowFile.LockedException.class,
                () -> file.add(Rule.of("git", "log"), ctrlC::get));
        System.out.println("FIGURE the wait ended " + (System.nanoTime() - pressed.get()) / 1_000_000
                + " ms after it was told to");
        assertEquals(lockedMessage(), e.getMessage());
        assertEquals(BEFORE, Files.readString(file.path()));
    }

    @Test
    void anInterruptEndsTheWaitAndStaysSet() throws Exception {
        Thread.currentThread().interrupt();
        try {
            assertThrows(AllowFile.LockedException.class, () -> file.add(Rule.of("git", "log")));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
        } finally {
            Thread.interrupted();
        }
        assertEquals(BEFORE, Files.readString(file.path()));
    }

    @Test
    void aLockFreedDuringTheWaitIsTakenAndTheRuleSaved() throws Exception {
        CompletableFuture<Void> freed = CompletableFuture.runAsync(() -> {
            sleep(1000);
            try (OutputStream in = holder.getOutputStream()) {
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(AllowFile.Added.APPENDED, file.add(Rule.of("git", "log")));
        freed.get();
        assertEquals("released", holderOut.readLine());
        assertEquals(BEFORE + "git log\n", Files.readString(file.path()));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
