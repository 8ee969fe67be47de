package dev.aii.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A prebuilt aii where a user put it, run as a user with nothing set up
 * would run it: {@code env -i PATH=/usr/bin:/bin HOME=<home>}, plus what a
 * test adds. The PATH holds no JDK.
 *
 * @param root the directory holding bin/aii (the tarball's top directory, or /usr of a .deb)
 * @param home the HOME of the runs
 */
record Unpacked(Path root, Path home) {

    /** The user's environment: a PATH without any JDK and a HOME of the test's. */
    static final String PATH = "/usr/bin:/bin";

    Unpacked {
        if (!Files.isExecutable(root.resolve("bin/aii"))) {
            throw new IllegalArgumentException("no bin/aii in " + root);
        }
    }

    /** A new HOME under {@code dir} for the image in {@code root}. */
    static Unpacked in(Path root, Path dir) throws IOException {
        return new Unpacked(root, Files.createDirectories(dir.resolve("home")));
    }

    Path aii() {
        return root.resolve("bin/aii");
    }

    /** The directory of the runtime, the helper and the startup caches. */
    Path lib() {
        return root.resolve("lib/aii");
    }

    Run run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs bin/aii with only PATH, HOME and {@code extra} in its environment. */
    Run run(Map<String, String> extra, String... args) {
        return Run.of(Map.of(), command(extra, List.of(args)));
    }

    /** The {@code env -i ...} command line that runs bin/aii with {@code args}. */
    List<String> command(Map<String, String> extra, List<String> args) {
        List<String> command = new ArrayList<>(List.of("/usr/bin/env", "-i", "PATH=" + PATH, "HOME=" + home));
        new TreeMap<>(extra).forEach((name, value) -> command.add(name + "=" + value));
        command.add(aii().toString());
        command.addAll(args);
        return command;
    }

    /** The first line of the key of a startup cache: the Java home it was made or checked for. */
    String keyOf(Path cache) throws IOException {
        return Files.readAllLines(Path.of(cache + ".key")).getFirst();
    }

    /** Whether the JVM loaded aii's main class from a startup cache for this command line. */
    boolean startsFromACache(Map<String, String> extra, String... args) {
        Map<String, String> all = new TreeMap<>(extra);
        all.put("AII_JAVA_OPTS", "-Xlog:class+load");
        Run run = run(all, args);
        return run.out().lines().anyMatch(l -> l.contains(" dev.aii.cli.Main source: shared objects file"));
    }
}
