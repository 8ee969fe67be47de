package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Programs;
import dev.aii.testkit.PtyDriver;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real {@code bin/aii}, started as a child process the way a user starts
 * it: its own temporary {@code HOME} (so the allow file is its own) and
 * working directory, the host's {@code PATH}, and nothing else from the test
 * JVM's environment. Runs without a terminal go through {@code setsid -w}, so
 * that a developer's terminal can never reach them; {@link #onTerminal} runs
 * it on a real pseudo-terminal instead.
 */
final class AiiProcess {

    /** How long any one run may take before the test fails: only to catch hangs. */
    static final Duration LIMIT = Duration.ofSeconds(60);

    /** Where the launcher is; the build passes its path. */
    static final Path LAUNCHER = Path.of(System.getProperty("aii.launcher", "../bin/aii")).toAbsolutePath().normalize();

    /**
     * A waiting line drawn and erased again ({@code \r}, a spinner, {@code waiting for <model>}, each
     * redraw, then {@code \r\x1b[2K}): on a terminal's stderr it comes whenever the model takes
     * 300 ms to answer, which a busy machine can make happen in any test. Terminal tests leave it out
     * of what they look through unless they are about it.
     */
    static final java.util.regex.Pattern WAITING_LINE =
            java.util.regex.Pattern.compile("(?:\r[-\\\\|/] waiting for [^\r\n\u001b]*)+\r\u001b\\[2K");

    /** What a finished run left behind. */
    record Result(int exit, String out, String err) {
    }

    private final Path root;
    private final Path home;
    private final Path directory;
    private final Map<String, String> env = new LinkedHashMap<>();
    private byte[] stdin;
    private Path launcher = LAUNCHER;
    private int runs;

    /** A run setup under {@code root}: {@code root/home} is HOME, {@code root/work} the working directory. */
    AiiProcess(Path root) throws IOException {
        this.root = root;
        this.home = Files.createDirectories(root.resolve("home"));
        this.directory = Files.createDirectories(root.resolve("work"));
        assertTrue(Files.isDirectory(LAUNCHER.getParent().getParent().resolve("aii-cli/target/lib")),
                "the end-to-end tests need the jars in aii-cli/target/lib: run them with ./mvnw verify");
        env.put("HOME", home.toString());
        env.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin"));
        // The launcher finds this JDK first, without searching the disk.
        env.put("JAVA_HOME", System.getProperty("java.home"));
    }

    /** Points {@code AII_BASE_URL} at {@code server}. */
    AiiProcess server(FakeOpenAiServer server) {
        return env("AII_BASE_URL", server.baseUrl());
    }

    AiiProcess env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Stdin is a pipe that carries {@code text}, then ends; without this stdin is {@code /dev/null}. */
    AiiProcess stdin(String text) {
        stdin = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /** Starts aii through {@code path} (e.g. a symlink) instead of the checkout's {@code bin/aii}. */
    AiiProcess launcher(Path path) {
        launcher = path;
        return this;
    }

    Path home() {
        return home;
    }

    Path directory() {
        return directory;
    }

    /** {@code ~/.config/aii/allow}. */
    Path allowFile() {
        return home.resolve(".config/aii/allow");
    }

    /** Writes the allow file, making its directory. */
    AiiProcess allow(String content) throws IOException {
        Files.createDirectories(allowFile().getParent());
        Files.writeString(allowFile(), content);
        return this;
    }

    /** The environment aii gets, e.g. to run another program exactly as aii's commands run. */
    Map<String, String> environment() {
        return Map.copyOf(env);
    }

    /** Runs aii without a controlling terminal and waits for it. */
    Result run(String... args) throws IOException, InterruptedException {
        return start(args).awaitExit();
    }

    /** Starts aii without a controlling terminal. */
    Running start(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(Programs.path("setsid"), "-w"));
        argv.addAll(command(args));
        return launch(argv);
    }

    /**
     * Runs {@code shell} without a controlling terminal and waits for it:
     * {@code shell} is a {@code /bin/sh} command in which {@code {aii}} stands
     * for aii with its environment, e.g. {@code "{aii} hello <&-"}.
     */
    Result runShell(String shell) throws IOException, InterruptedException {
        String aii = String.join(" ", command().stream().map(AiiProcess::quote).toList());
        return launch(List.of(Programs.path("setsid"), "-w", "/bin/sh", "-c", shell.replace("{aii}", aii))).awaitExit();
    }

    private Running launch(List<String> argv) throws IOException {
        int n = ++runs;
        Path out = root.resolve("stdout." + n);
        Path err = root.resolve("stderr." + n);
        ProcessBuilder builder = new ProcessBuilder(argv)
                .directory(directory.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        if (stdin == null) {
            builder.redirectInput(new File("/dev/null"));
        }
        Process process = builder.start();
        if (stdin != null) {
            try (OutputStream in = process.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // aii may end without reading its stdin (e.g. on a usage error): what it did is in the result.
            }
        }
        return new Running(process, out, err);
    }

    /**
     * Starts {@code shell} on a pseudo-terminal: {@code shell} is a {@code /bin/sh}
     * command in which {@code {aii}} stands for aii with its environment, e.g.
     * {@code "cat notes | {aii} -x 'sum it up' 2>/dev/null"}.
     */
    PtyDriver onTerminal(String shell) throws IOException {
        String aii = String.join(" ", command().stream().map(AiiProcess::quote).toList());
        return PtyDriver.start(shell.replace("{aii}", aii), Map.of(), directory).hiding(WAITING_LINE);
    }

    /** Starts aii on a pseudo-terminal with these arguments (stdin, stdout and stderr the terminal). */
    PtyDriver onTerminal(List<String> args) throws IOException {
        // exec: the shell must not stay as aii's parent, where Ctrl-C on the terminal would end it too.
        return PtyDriver.start("exec " + String.join(" ", command(args.toArray(String[]::new)).stream()
                .map(AiiProcess::quote).toList()), Map.of(), directory).hiding(WAITING_LINE);
    }

    /**
     * {@code env -i}: only the variables given here; SIGINT, SIGTERM, SIGHUP
     * and SIGTSTP at their default action, whatever the build that started
     * the tests ignores.
     */
    List<String> command(String... args) {
        List<String> argv = new ArrayList<>(List.of(Programs.path("env"), "-i", "--default-signal=INT,TERM,HUP,TSTP"));
        env.forEach((k, v) -> argv.add(k + "=" + v));
        argv.add(launcher.toString());
        argv.addAll(List.of(args));
        return argv;
    }

    /** Quotes {@code s} for {@code /bin/sh}. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
