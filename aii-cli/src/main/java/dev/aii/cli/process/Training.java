package dev.aii.cli.process;

import dev.aii.cli.Aii;
import dev.aii.cli.Host;
import dev.aii.cli.Main;
import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Render;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The training runs of the two startup caches that {@code make install}
 * creates ({@code -XX:AOTCacheOutput}), each in one JVM with the launcher's
 * module path and flags, so that the classes a path loads are stored in its
 * cache already linked. Everything they print is discarded.
 *
 * <ul>
 *   <li>{@code short} (the default): {@code --help}, {@code --version},
 *       {@code --list-allowed}, {@code --check} and one exec policy decision
 *       with its rendering. It reads the allow file, never writes.
 *   <li>{@code prompt}: {@code aii hi}, piped content with a prompt,
 *       {@code -m}, and {@code -x} with one auto-allowed {@code pwd}, against
 *       a model server of its own on a loopback port
 *       ({@link TrainingServer}), with a temporary home directory.
 * </ul>
 *
 * <p>Two caches, because every class in a cache is loaded at each start:
 * the prompt path's HTTP client, JSON and process classes would slow down the
 * short commands by more than they gain; the launcher chooses the cache by
 * the command line. Training ends as {@link Main} does ({@link ProcessEnd}):
 * by {@link Runtime#halt} when no shutdown hook was registered, which writes
 * the cache as an exit does, and keeps the classes that {@link System#exit}
 * would load to ask about logging the exit out of the short commands' cache.
 */
public final class Training {

    private Training() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(name -> name.startsWith("AII_"));
        if (args.length > 0 && args[0].equals("prompt")) {
            prompt(env);
        } else {
            shortCommands(env);
        }
        ProcessEnd.end(0, env);
    }

    private static void shortCommands(Map<String, String> env) {
        Stdio stdio = Stdio.detect();
        for (List<String> command : List.of(List.of("--help"), List.of("--version"), List.of("--list-allowed"),
                List.of("--check", "ls", "-la", "/tmp"), List.of("--check", "git", "status"),
                // a guarded form: git log's table, and a check that asks
                List.of("--check", "git", "log", "-1", "--output=/tmp/aii-training-never-written"))) {
            run(env, stdio, InputStream.nullInputStream(), command);
        }
        AllowFile.Loaded rules = AllowFile.at(AllowFile.defaultPath(env)).load();
        ExecPolicy policy = ExecPolicy.of(rules.rules().size() > 0 ? rules.rules() : Builtins.defaults(),
                SystemEnvironment.current());
        if (policy.evaluate("ls", List.of("-l", "my file")) instanceof Decision.Allow allow) {
            Render.render(allow.command().arguments());
        }
    }

    private static void prompt(Map<String, String> env) throws IOException {
        Path home = Files.createTempDirectory("aii-training");
        try (TrainingServer server = TrainingServer.start()) {
            env.put("HOME", home.toString());
            env.put("AII_BASE_URL", server.baseUrl());
            env.put("AII_HISTORY", "off");
            // stdin /dev/null, stdout and stderr not terminals: as a script or a pipe runs aii.
            Stdio quiet = new Stdio(false, true, false, false);
            run(env, quiet, InputStream.nullInputStream(), List.of("hi"));
            run(env, quiet, InputStream.nullInputStream(), List.of("-x", "where", "am", "I"));
            run(env, quiet, InputStream.nullInputStream(), List.of("-m"));
            Stdio piped = new Stdio(false, false, false, false);
            run(env, piped, new ByteArrayInputStream("some notes\nto sum up\n".getBytes(StandardCharsets.UTF_8)),
                    List.of("sum", "this", "up"));
        } finally {
            delete(home);
        }
    }

    private static void run(Map<String, String> env, Stdio stdio, InputStream in, List<String> command) {
        Host host = Main.host(in, OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), env, stdio);
        new Aii(host).run(command.toArray(new String[0]));
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
