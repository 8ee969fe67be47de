package dev.aii.llama;

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
import java.util.concurrent.TimeUnit;

/**
 * The real {@code bin/aii} as a user starts it, against a server: its own
 * temporary {@code HOME} and working directory, {@code PATH}, and only the
 * variables given here ({@code env -i}). Without a terminal it runs under
 * {@code setsid -w}; {@link #onTerminal} gives it a real pseudo-terminal.
 */
final class AiiRun {

    /** How long one run may take before the test fails: only to catch hangs. */
    static final Duration LIMIT = Duration.ofSeconds(120);

    static final Path LAUNCHER = Path.of(System.getProperty("aii.launcher", "../bin/aii")).toAbsolutePath().normalize();

    record Result(int exit, String out, String err) {
    }

    private final Path root;
    private final Path directory;
    private final Map<String, String> env = new LinkedHashMap<>();
    private byte[] stdin;
    private int runs;

    AiiRun(Path root, String baseUrl) throws IOException {
        this.root = root;
        Path home = Files.createDirectories(root.resolve("home"));
        this.directory = Files.createDirectories(root.resolve("work"));
        if (!Files.isDirectory(LAUNCHER.getParent().getParent().resolve("aii-cli/target/lib"))) {
            throw new AssertionError("the real-server tests need aii-cli/target/lib: run them with ./mvnw verify");
        }
        env.put("HOME", home.toString());
        env.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("AII_BASE_URL", baseUrl);
    }

    AiiRun env(String name, String value) {
        env.put(name, value);
        return this;
    }

    AiiRun stdin(String text) {
        stdin = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    Path directory() {
        return directory;
    }

    Result run(String... args) throws IOException, InterruptedException {
        return start(args).awaitExit();
    }

    Running start(String... args) throws IOException {
        int n = ++runs;
        Path out = root.resolve("stdout." + n);
        Path err = root.resolve("stderr." + n);
        List<String> argv = new ArrayList<>(List.of(Programs.path("setsid"), "-w"));
        argv.addAll(command(args));
        ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
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
                // aii may stop reading early; what it did is in the result
            }
        }
        return new Running(process, out, err);
    }

    /** aii with these arguments on a pseudo-terminal (stdin, stdout and stderr the terminal). */
    PtyDriver onTerminal(String... args) throws IOException {
        return PtyDriver.start("exec " + String.join(" ", command(args).stream().map(AiiRun::quote).toList()),
                Map.of(), directory);
    }

    private List<String> command(String... args) {
        List<String> argv = new ArrayList<>(List.of(Programs.path("env"), "-i", "--default-signal=INT"));
        env.forEach((k, v) -> argv.add(k + "=" + v));
        argv.add(LAUNCHER.toString());
        argv.addAll(List.of(args));
        return argv;
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** A started aii whose stdout and stderr go to files. */
    static final class Running {
        private final Process process;
        private final Path out;
        private final Path err;

        Running(Process process, Path out, Path err) {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        void awaitStdout(String text) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            while (!Files.readString(out).contains(text)) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new AssertionError("expected " + text + " on stdout; it holds: " + Files.readString(out)
                            + "; stderr: " + Files.readString(err));
                }
                Thread.sleep(10);
            }
        }

        /** SIGINT to aii's JVM, as Ctrl-C on its terminal sends it. */
        void interrupt() throws IOException, InterruptedException {
            ProcessHandle java = process.toHandle().descendants()
                    .filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false)).findFirst()
                    .orElse(process.toHandle());
            Process kill = new ProcessBuilder(Programs.path("kill"), "-INT", Long.toString(java.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -INT failed");
            }
        }

        Result awaitExit() throws IOException, InterruptedException {
            if (!process.waitFor(LIMIT.toNanos(), TimeUnit.NANOSECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("aii did not end within " + LIMIT + "; stdout: " + Files.readString(out)
                        + "; stderr: " + Files.readString(err));
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        }
    }
}
