package dev.aii.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One finished process: its exit status and everything it wrote. Commands run
 * from the checkout's root with stdin from /dev/null.
 */
record Run(int status, String out, String err) {

    /** The checkout: the parent of this module's directory, where surefire runs the tests. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** aii-cli's packaged jars, which the launcher in the checkout runs. */
    static final Path LIB = ROOT.resolve("aii-cli/target/lib");

    static Run of(Map<String, String> extraEnv, String... command) {
        return of(extraEnv, List.of(command));
    }

    static Run of(Map<String, String> extraEnv, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().remove("AII_JAVA_OPTS");
        builder.environment().remove("AII_AOT_OUTPUT");
        builder.environment().putAll(extraEnv);
        try {
            Process process = builder.start();
            // A thread of its own for each stream: the common pool may have one thread (2 cores), and a process
            // that fills the pipe of the stream not being read would never end.
            CompletableFuture<String> out = new CompletableFuture<>();
            CompletableFuture<String> err = new CompletableFuture<>();
            readInto(out, process.getInputStream());
            readInto(err, process.getErrorStream());
            // Generous: only to catch a hang (a jlink run on a busy machine takes a while).
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("still running after 5 minutes: " + command);
            }
            return new Run(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Whether a program is on this machine's PATH. */
    static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Whether aii-cli has been packaged (./mvnw verify or package did it before these tests). */
    static boolean packaged() {
        try (var jars = Files.list(LIB)) {
            return jars.anyMatch(p -> p.getFileName().toString().startsWith("aii-cli-"));
        } catch (IOException e) {
            return false;
        }
    }

    private static void readInto(CompletableFuture<String> text, InputStream in) {
        Thread.ofPlatform().daemon().start(() -> {
            try {
                text.complete(read(in));
            } catch (RuntimeException e) {
                text.completeExceptionally(e);
            }
        });
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails with what the process wrote unless it exited with 0. */
    Run ok() {
        if (status != 0) {
            throw new AssertionError("exit " + status + "\nstdout:\n" + out + "\nstderr:\n" + err);
        }
        return this;
    }
}
