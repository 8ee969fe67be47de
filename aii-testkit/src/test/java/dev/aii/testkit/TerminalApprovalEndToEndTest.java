package dev.aii.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.AllowFile;
import dev.aii.policy.Builtins;
import dev.aii.policy.Render;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The approval prompt on a real pseudo-terminal: a separate JVM makes one
 * tool call with the /dev/tty terminal while its stdin is a pipe, its stdout
 * a file and its stderr /dev/null, so the prompt can only reach the user
 * through the terminal.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TerminalApprovalEndToEndTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Path made;
    private Path allow;
    private Path result;

    @BeforeEach
    void paths() {
        made = dir.resolve("made");
        allow = dir.resolve("config/allow");
        result = dir.resolve("result");
    }

    private String prompt() {
        // Column 0 of a cleared line and the reset, then the seed's bytes (the terminal turns each LF into CR LF).
        return "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25h"
                + "aii: run this command?\r\n  touch " + made + "\r\n  [y] yes once   [a] always allow exactly \"touch " + made
                + "\"   [N] no\r\n> ";
    }

    private String call() {
        return "{\"executable\":\"touch\",\"arguments\":[\"" + made + "\"]}";
    }

    /** The shell command: the JVM with stdin a pipe, stdout a file and stderr discarded. */
    private String command(String... extra) {
        List<String> java = new ArrayList<>(javaCommand());
        java.add(allow.toString());
        java.add(call());
        java.addAll(List.of(extra));
        return "echo piped-input | " + java.stream().map(Render::quote).collect(Collectors.joining(" "))
                + " > " + Render.quote(result.toString()) + " 2>/dev/null";
    }

    private static List<String> javaCommand() {
        return javaCommand(ApprovalMain.class.getName());
    }

    private static List<String> javaCommand(String mainClass) {
        String classPath = Stream.of(System.getProperty("jdk.module.path", ""), System.getProperty("java.class.path", ""))
                .flatMap(p -> Stream.of(p.split(File.pathSeparator)))
                .filter(p -> !p.isEmpty())
                .collect(Collectors.joining(File.pathSeparator));
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-cp", classPath, mainClass);
    }

    private String answer(String keys) throws Exception {
        try (PtyDriver pty = PtyDriver.start(command(), Map.of("PATH", "/usr/bin:/bin"), dir)) {
            pty.awaitOutput(prompt(), LIMIT);
            pty.type(keys);
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
            assertEquals(prompt() + keys.replace("\n", "\r\n"), pty.output());
        }
        return Files.readString(result);
    }

    @Test
    void yesRunsTheCommandOnceAndStoresNothing() throws Exception {
        assertEquals("exit 0\n", answer("y\n"));
        assertTrue(Files.exists(made));
        assertFalse(Files.exists(allow));
    }

    @Test
    void noRunsNothing() throws Exception {
        assertEquals("Denied: the user declined to run this command. Do not retry it.", answer("n\n"));
        assertFalse(Files.exists(made));
        assertFalse(Files.exists(allow));
    }

    @Test
    void alwaysRunsTheCommandSeedsTheAllowFileAndTheNextRunDoesNotAsk() throws Exception {
        assertEquals("exit 0\n", answer("a\n"));
        assertTrue(Files.exists(made));
        StringBuilder seeded = new StringBuilder(AllowFile.SEED_HEADER + "\n" + AllowFile.SEED_COMMENT + "\n");
        Builtins.DEFAULT_RULES.forEach(r -> seeded.append(r.toLine()).append('\n'));
        assertEquals(seeded + "= touch " + made + "\n", Files.readString(allow));

        Files.delete(made);
        try (PtyDriver pty = PtyDriver.start(command(), Map.of("PATH", "/usr/bin:/bin"), dir)) {
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
            assertEquals("", pty.output());
        }
        assertEquals("exit 0\n", Files.readString(result));
        assertTrue(Files.exists(made));
    }

    @Test
    void interruptingAWaitingPromptEndsItWithoutRunning() throws Exception {
        try (PtyDriver pty = PtyDriver.start(command("interrupt"), Map.of("PATH", "/usr/bin:/bin"), dir)) {
            pty.awaitOutput(prompt(), LIMIT);
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
        }
        assertEquals("Terminated: interrupted by the user.", Files.readString(result));
        assertFalse(Files.exists(made));
    }

    @Test
    void withoutAControllingTerminalTheCommandIsDenied() throws Exception {
        List<String> argv = new ArrayList<>(List.of(Programs.path("setsid"), "-w"));
        argv.addAll(javaCommand());
        argv.add(allow.toString());
        argv.add(call());
        Process process = new ProcessBuilder(argv)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(result.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), "the call did not end");
        assertEquals("Denied: this command is not on the allowlist and there is no terminal to ask the user for "
                + "approval. Do not retry it.", Files.readString(result));
        assertFalse(Files.exists(made));
    }

    @Test
    void typeAheadBeforeThePromptDoesNotAnswerIt() throws Exception {
        try (PtyDriver pty = PtyDriver.start("sleep 1; " + command(), Map.of("PATH", "/usr/bin:/bin"), dir)) {
            pty.type("y\n");
            pty.awaitOutput(prompt(), LIMIT);
            pty.type("n\n");
            assertEquals(0, pty.awaitExit(LIMIT), pty.output());
        }
        assertEquals("Denied: the user declined to run this command. Do not retry it.", Files.readString(result));
        assertFalse(Files.exists(made));
    }

    @Test
    void ctrlCWhileAlwaysWaitsForALockedFileEndsTheWaitRunsNothingAndSaysWhy() throws Exception {
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "ls\n");
        Path lock = allow.resolveSibling(".allow.lock");
        List<String> holding = new ArrayList<>(javaCommand(HoldLockMain.class.getName()));
        holding.add(lock.toString());
        Process holder = new ProcessBuilder(holding)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            assertEquals("locked", new String(holder.getInputStream().readNBytes(7), java.nio.charset.StandardCharsets.UTF_8).strip());
            Path err = dir.resolve("err");
            List<String> java = new ArrayList<>(javaCommand());
            java.addAll(List.of(allow.toString(), call(), "sigint"));
            String line = "exec " + java.stream().map(Render::quote).collect(Collectors.joining(" ")) + " < /dev/null > "
                    + Render.quote(result.toString()) + " 2> " + Render.quote(err.toString());
            try (PtyDriver pty = PtyDriver.start(line, Map.of("PATH", "/usr/bin:/bin"), dir)) {
                pty.awaitOutput(prompt(), LIMIT);
                pty.type("a\n");
                awaitWaiterOn(lock, holder.pid());
                long pressed = System.nanoTime();
                pty.type("\u0003");
                assertEquals(0, pty.awaitExit(LIMIT), pty.output());
                System.out.println("FIGURE Ctrl-C on the terminal during the lock wait: aii done after "
                        + (System.nanoTime() - pressed) / 1_000_000 + " ms");
            }
            assertEquals("Terminated: interrupted by the user.\n", Files.readString(result));
            assertEquals("aii: warning: could not save rule = touch " + made + ": " + allow
                    + " is locked by another process\naii: $ touch " + made + "\n", Files.readString(err));
            assertFalse(Files.exists(made));
            assertEquals("ls\n", Files.readString(allow));
        } finally {
            holder.destroyForcibly();
        }
    }

    /** Until a process other than the holder has the lock file open: the tool is waiting for the lock. */
    private static void awaitWaiterOn(Path lock, long holder) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                for (Path proc : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                    if (Long.parseLong(proc.getFileName().toString()) != holder && holdsOpen(proc, lock)) {
                        return;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("nothing waited for " + lock);
    }

    private static boolean holdsOpen(Path proc, Path file) {
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file);
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}
