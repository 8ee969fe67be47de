package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher where it is easy to get wrong: standard streams the caller
 * closed, a reader that leaves, its own errors (plain and JSON), a checkout
 * in a directory with spaces, other shells, and nothing from the JVM on a
 * redirected stderr.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LauncherE2E {

    @TempDir
    Path tmp;

    @Test
    void aClosedStdinIsNoContent() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("Hi."));
            AiiProcess aii = new AiiProcess(tmp).server(server);
            assertEquals(new Result(0, "Hi.\n", ""), aii.runShell("{aii} 'Say hi' <&-"));
            assertEquals("Say hi", server.lastChatRequest().lastUserMessage());
        }
    }

    @Test
    void aClosedStdoutFailsTheCommand() throws Exception {
        AiiProcess aii = new AiiProcess(tmp);
        assertEquals(new Result(1, "", "aii: Cannot write to stdout\n"), aii.runShell("{aii} --version >&-"));
        assertEquals(new Result(1, "", "{\"error\":\"internal_error\",\"message\":\"Cannot write to stdout\","
                + "\"detail\":\"java.io.IOException: Bad file descriptor\",\"exitCode\":1}\n"),
                aii.runShell("{aii} --list-allowed --json >&-"));
    }

    @Test
    void aClosedStderrKeepsTheExitCode() throws Exception {
        assertEquals(new Result(2, "", ""), new AiiProcess(tmp).runShell("{aii} --bogus 2>&-"));
    }

    @Test
    void aReaderThatLeavesEndsTheAnswerQuietlyWith141() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            lines.add("Line " + i + " of an answer far longer than any pipe can hold.\n");
        }
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text(lines.toArray(String[]::new)));
            AiiProcess aii = new AiiProcess(tmp).server(server);
            Result r = aii.runShell("{ {aii} 'Count'; echo $? > status; } | head -c 5");
            assertEquals(new Result(0, "Line ", ""), r);
            assertEquals("141\n", Files.readString(aii.directory().resolve("status")));
        }
    }

    @Test
    void underJsonTheJvmAddsNoWarningOfItsOwn() throws Exception {
        // Loading a file that is no library makes the JVM warn about its stack guard.
        Path notALibrary = Files.writeString(tmp.resolve("libfmshim.so"), "not a library\n");
        Result r = new AiiProcess(tmp).env("AII_SHIM_LIBRARY", notALibrary.toString()).run("-j", "-m");
        assertEquals(1, r.exit(), r.err());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("{\"error\":\"internal_error\",\"message\":\"Cannot load the Foundation Models "
                + "shim library"), r.err());
        assertTrue(r.err().endsWith(",\"exitCode\":1}\n"), r.err());
    }

    /**
     * What the JVM prints itself never reaches stdout: its own output
     * ({@code -XX:+PrintFlagsFinal}, which is where a thread dump goes too) is
     * not printed, and on stderr when asked back; its log's warnings (large
     * pages asked for and, on most machines, missing) go to stderr.
     */
    @Test
    void nothingTheJvmPrintsReachesStdout() throws Exception {
        AiiProcess aii = new AiiProcess(tmp);
        Result quiet = aii.env("AII_JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:+UseLargePages").run("--version");
        assertEquals("aii 0.9.0\n", quiet.out());
        assertFalse(quiet.err().contains("UseSerialGC"), quiet.err());

        Result shown = aii.env("AII_JAVA_OPTS", "-XX:+DisplayVMOutput -XX:+PrintFlagsFinal").run("--version");
        assertEquals("aii 0.9.0\n", shown.out());
        assertTrue(shown.err().contains("UseSerialGC"), "the flags, on stderr: " + shown.err());
    }

    @Test
    void aLauncherThatIsNotBuiltSaysSoPlainOrAsJson() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("checkout")).toRealPath();
        Path launcher = copyLauncher(root);
        AiiProcess aii = new AiiProcess(tmp.resolve("run")).launcher(launcher);
        String message = "not built yet: run ./mvnw -q -DskipTests package in " + root;
        assertEquals(new Result(1, "", "aii: " + message + "\n"), aii.run("hello"));
        assertEquals(new Result(1, "", "{\"error\":\"internal_error\",\"message\":\"" + message + "\",\"exitCode\":1}\n"),
                aii.run("-xj", "hello"));
    }

    @Test
    void noJdkIsAnErrorWithEveryLinePrefixedOrOneJsonLine() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("checkout"));
        Path launcher = copyLauncher(root);
        Files.createDirectories(root.resolve("aii-cli/target/lib"));
        Path finder = root.resolve("bin/find-jdk");
        Files.writeString(finder, """
                #!/bin/sh
                printf '%s\\n' 'aii: no JDK 25 or newer found. Looked at:' >&2
                printf '%s\\n' '  JAVA_HOME: /opt/"my" jdk\\25 (no bin/java)' >&2
                printf '%s\\n' 'Install a JDK 25 and set JAVA_HOME to its home directory.' >&2
                exit 1
                """);
        Files.setPosixFilePermissions(finder, PosixFilePermissions.fromString("rwxr-xr-x"));
        AiiProcess aii = new AiiProcess(tmp.resolve("run")).launcher(launcher);
        assertEquals(new Result(1, "", """
                aii: no JDK 25 or newer found. Looked at:
                aii:   JAVA_HOME: /opt/"my" jdk\\25 (no bin/java)
                aii: Install a JDK 25 and set JAVA_HOME to its home directory.
                """), aii.run("--version"));
        assertEquals(new Result(1, "", "{\"error\":\"internal_error\",\"message\":\"no JDK 25 or newer found. Looked at:"
                + "\\n  JAVA_HOME: /opt/\\\"my\\\" jdk\\\\25 (no bin/java)"
                + "\\nInstall a JDK 25 and set JAVA_HOME to its home directory.\",\"exitCode\":1}\n"),
                aii.run("hello", "--json"));
        // -j inside -f's value, or after --, is no request for JSON.
        assertTrue(aii.run("-fj", "notes").err().startsWith("aii: no JDK"));
        assertTrue(aii.run("--", "-j").err().startsWith("aii: no JDK"));
        assertTrue(aii.run("--check", "ls", "-j").err().startsWith("aii: no JDK"));
        // Nor is -j as the value of --model; one after it is.
        assertTrue(aii.run("--model", "-j", "hello").err().startsWith("aii: no JDK"));
        assertTrue(aii.run("--model", "llama3.2", "-j", "hello").err().startsWith("{\"error\":\"internal_error\""));
    }

    @Test
    void aCheckoutInADirectoryWithSpacesRuns() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("my tools/aii checkout"));
        Path launcher = copyLauncher(root);
        Files.copy(AiiProcess.LAUNCHER.resolveSibling("find-jdk"), root.resolve("bin/find-jdk"),
                StandardCopyOption.COPY_ATTRIBUTES);
        Path target = Files.createDirectories(root.resolve("aii-cli/target"));
        Path lib = Files.createSymbolicLink(target.resolve("lib"), AiiProcess.LAUNCHER.getParent().getParent()
                .resolve("aii-cli/target/lib"));
        try {
            AiiProcess aii = new AiiProcess(tmp.resolve("run")).launcher(launcher);
            assertEquals(new Result(0, "aii 0.9.0\n", ""), aii.run("--version"));
            assertEquals(new Result(0, "# source: built-in defaults (no config file)\n" + CommandLineE2E.DEFAULTS, ""),
                    aii.run("--list-allowed", "-j"));
        } finally {
            // A link out of the temporary directory would make its cleanup warn.
            Files.delete(lib);
        }
    }

    @Test
    void everyShellAtHandRunsTheLauncher() throws Exception {
        List<String> shells = new ArrayList<>(List.of("/bin/sh"));
        for (String name : List.of("dash", "bash", "zsh", "ksh", "mksh", "yash")) {
            onPath(name).ifPresent(shells::add);
        }
        for (String shell : shells) {
            assertEquals(new Result(0, "aii 0.9.0\n", ""),
                    runWith(shell, tmp, AiiProcess.LAUNCHER.toString(), "--version"), shell);
        }
    }

    /** Runs {@code shell script args...} in {@code directory} with the environment aii's runs get. */
    private Result runWith(String shell, Path directory, String script, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(shell, script));
        argv.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
                .redirectInput(new File("/dev/null")).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(new AiiProcess(Files.createTempDirectory(tmp, "run")).environment());
        Process process = builder.start();
        assertTrue(process.waitFor(AiiProcess.LIMIT.toSeconds(), TimeUnit.SECONDS), String.join(" ", argv));
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void aRelativeLinkGivenToTheShellByItsBareNameRuns() throws Exception {
        Path real = Files.createSymbolicLink(Files.createDirectories(tmp.resolve("chain")).resolve("aii-real"),
                AiiProcess.LAUNCHER);
        try {
            Path links = Files.createDirectories(tmp.resolve("links"));
            Files.createSymbolicLink(links.resolve("aii"), Path.of("../chain/aii-real"));
            assertEquals(new Result(0, "aii 0.9.0\n", ""), runWith("/bin/sh", links, "aii", "--version"));
        } finally {
            // A link out of the temporary directory would make its cleanup warn.
            Files.delete(real);
        }
    }

    @Test
    void onATerminalWithStderrRedirectedNothingButAiiWritesThere() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.text("Hello."));
            AiiProcess aii = new AiiProcess(tmp).server(server).env("TERM", "xterm-256color");
            try (PtyDriver pty = aii.onTerminal("{aii} -i 2>err.txt")) {
                pty.awaitOutput(InteractiveE2E.header(server), AiiProcess.LIMIT);
                pty.awaitOutput("> ", AiiProcess.LIMIT);
                pty.type("hello\n");
                pty.awaitOutput("Hello.\r\n", AiiProcess.LIMIT);
                pty.awaitOutput("> ", AiiProcess.LIMIT);
                pty.type("/quit\n");
                assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
                assertFalse(pty.output().contains("WARNING"), pty.output());
            }
            assertEquals("", Files.readString(aii.directory().resolve("err.txt")));
        }
    }

    /** A copy of the launcher in {@code root/bin}, with nothing else of a checkout. */
    private static Path copyLauncher(Path root) throws Exception {
        Path bin = Files.createDirectories(root.resolve("bin"));
        return Files.copy(AiiProcess.LAUNCHER, bin.resolve("aii"), StandardCopyOption.COPY_ATTRIBUTES);
    }

    private static Optional<String> onPath(String name) {
        for (String dir : Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (dir.startsWith("/") && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }
}
