package dev.aii.llamacpp.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * llama.cpp's own aborts end the process (SIGABRT); the shim's guard first
 * kills every command the JVM started, so that none outlives it. Without the
 * guard, such a command goes on running: the control case shows the test can
 * tell the two apart.
 */
class AbortGuardTest {

    private static final Path NATIVES = Path.of(System.getProperty("aii.test.llamacpp.dir", "target/natives"));

    private record Died(int exit, long command) {
    }

    private static Died abortWithACommandRunning(String mode) throws Exception {
        Path dir;
        try (var dirs = Files.list(NATIVES)) {
            dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "--enable-native-access=ALL-UNNAMED", "-XX:-CreateCoredumpOnCrash", "-cp", classPath(),
                AbortGuardMain.class.getName(), mode));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put(Natives.ENVIRONMENT_VARIABLE, dir.toString());
        Process jvm = builder.start();
        long command;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            command = Long.parseLong(out.readLine().strip());
        }
        assertTrue(jvm.waitFor(60, TimeUnit.SECONDS), "the JVM did not die");
        return new Died(jvm.exitValue(), command);
    }

    /** Whether {@code pid} is a process that has not ended (a zombie has ended). */
    private static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        for (int i = 0; i < 100; i++) {
            Optional<String> state = Files.exists(stat) ? Optional.of(Files.readString(stat)) : Optional.empty();
            if (state.isEmpty() || state.get().substring(state.get().lastIndexOf(')') + 2).startsWith("Z")) {
                return false;
            }
            if (!state.get().contains("(sleep)")) {
                return false;       // the id names another process now
            }
            Thread.sleep(20);       // SIGKILL is sent before the JVM ends; let the kernel finish it
            if (i == 99) {
                return true;
            }
        }
        return true;
    }

    @Test
    void aLlamaCppAbortKillsTheCommandsTheJvmStartedBeforeItEnds() throws Exception {
        Died died = abortWithACommandRunning("guard");
        assertEquals(128 + 6, died.exit(), "the JVM should end by SIGABRT");
        assertFalse(running(died.command()), "the command outlived the JVM");
    }

    @Test
    void withoutTheGuardTheCommandOutlivesTheAbortedJvm() throws Exception {
        Died died = abortWithACommandRunning("bare");
        try {
            assertEquals(128 + 6, died.exit());
            assertTrue(running(died.command()), "the control case: the command should still run");
        } finally {
            ProcessHandle.of(died.command()).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static String classPath() throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        entries.add(Path.of(AbortGuardMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!entry.isEmpty() && !entries.contains(entry)) {
                    entries.add(entry);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
