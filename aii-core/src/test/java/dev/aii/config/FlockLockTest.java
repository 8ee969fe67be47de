package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.policy.Rule;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock file held with {@code flock(2)} (util-linux's {@code flock}, as a
 * script takes it), which Java's own {@code fcntl} locks do not see on
 * Linux, is waited for as a held lock is.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlockLockTest {

    @TempDir
    Path home;

    @Test
    void aLockFileHeldWithFlockIsWaitedForAndTheRuleIsNotSavedMeanwhile() throws Exception {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
        Files.createDirectories(file.path().getParent());
        Files.writeString(file.path(), "ls\n");
        Path lock = AllowFileWriter.lockFile(file.path());
        // exec keeps one process: the lock goes with it when it is killed
        Process holder = new ProcessBuilder("/bin/sh", "-c",
                "exec 9>\"$0\" && flock -x 9 && echo locked && exec sleep 60", lock.toString())
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());
            AllowFile.LockedException e = assertThrows(AllowFile.LockedException.class,
                    () -> file.add(Rule.of("git", "log")));
            assertEquals(file.path() + " is locked by another process", e.getMessage());
            assertEquals("ls\n", Files.readString(file.path()));
        } finally {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(AllowFile.Added.APPENDED, file.add(Rule.of("git", "log")));
        assertEquals("ls\ngit log\n", Files.readString(file.path()));
    }
}
