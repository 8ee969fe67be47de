package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An image its user cannot write (unpacked by root into /opt, say): its
 * startup caches for this user go to the user's cache directory
 * (XDG_CACHE_HOME, else ~/.cache), as a link to the shipped cache the JVM
 * takes, or as a cache of the user's own where it refuses it. Run as
 * {@code nobody} (util-linux setpriv) when the tests run as root, whom no
 * file mode stops.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReadOnlyInstallTest {

    static final boolean ROOT = "0".equals(Run.of(Map.of(), "id", "-u").ok().out().strip());

    @TempDir
    Path tmp;
    Unpacked aii;
    List<String> before;

    @BeforeEach
    void unpackForSomeoneElse() throws IOException {
        aii = Unpacked.in(Packages.unpack(tmp.resolve("opt")), tmp);
        if (ROOT) {
            Run.of(Map.of(), "chmod", "755", tmp.toString()).ok();
            Run.of(Map.of(), "chown", "65534:65534", aii.home().toString()).ok();
        }
    }

    private void readOnly() throws IOException {
        Run.of(Map.of(), "chmod", "-R", "a-w", aii.root().toString()).ok();
        before = files(aii.root());
    }

    @AfterEach
    void writableAgain() {
        Run.of(Map.of(), "chmod", "-R", "u+w", aii.root().toString()).ok();
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.map(Path::toString).sorted().toList();
        }
    }

    /** bin/aii as its user: this one, or nobody when the tests run as root. */
    private Run run(Map<String, String> extra, String... args) {
        List<String> command = new ArrayList<>();
        if (ROOT) {
            command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        command.addAll(aii.command(extra, List.of(args)));
        return Run.of(Map.of(), command);
    }

    private boolean startsFromACache(Map<String, String> extra) {
        Map<String, String> all = new java.util.HashMap<>(extra);
        all.put("AII_JAVA_OPTS", "-Xlog:class+load");
        return run(all, "--version").out().lines()
                .anyMatch(l -> l.contains(" dev.aii.cli.Main source: shared objects file"));
    }

    @Test
    void theUsersCacheDirectoryLinksToTheShippedCachesTheJvmTakes() throws IOException {
        readOnly();
        assertEquals(new Run(0, "aii " + TarballSmokeTest.VERSION + "\n", ""), run(Map.of(), "--version"));

        Path users = Path.of(aii.home() + "/.cache/aii/aot" + aii.lib());
        for (String name : AotCachesTest.CACHES) {
            assertEquals(aii.lib().resolve(name), Files.readSymbolicLink(users.resolve(name)));
            assertEquals(aii.lib().resolve("runtime").toString(), aii.keyOf(users.resolve(name)));
        }
        assertEquals(before, files(aii.root()), "nothing written into the image");
        assertTrue(startsFromACache(Map.of()));
    }

    @Test
    void aCacheTheJvmRefusesIsMadeForTheUserUnderXdgCacheHome() throws IOException {
        Files.writeString(aii.lib().resolve("aii.aot"), "not a cache");
        readOnly();
        Path xdg = aii.home().resolve("xdg");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", xdg.toString());
        assertEquals(new Run(0, "allow (rule: ls)\n", ""), run(env, "--check", "ls", "-la"));

        Path users = Path.of(xdg + "/aii/aot" + aii.lib());
        assertTrue(Files.isRegularFile(users.resolve("aii.aot"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.size(users.resolve("aii.aot")) > 1_000_000);
        assertEquals(aii.lib().resolve("aii-prompt.aot"), Files.readSymbolicLink(users.resolve("aii-prompt.aot")));
        assertEquals(before, files(aii.root()), "nothing written into the image");
        assertTrue(startsFromACache(env));
    }

    @Test
    void withoutAWritableCacheDirectoryAiiStillRunsAndWritesNothing() throws IOException {
        readOnly();
        Map<String, String> env = Map.of("XDG_CACHE_HOME", aii.lib().resolve("cache").toString());
        assertEquals(new Run(0, "aii " + TarballSmokeTest.VERSION + "\n", ""), run(env, "--version"));
        assertEquals(before, files(aii.root()));
        Run post = run(env, "--post-install");
        assertEquals(1, post.status());
        assertEquals("aii: cannot write the startup caches: " + aii.lib() + " is read-only, and so is "
                + aii.lib().resolve("cache") + "/aii/aot" + aii.lib() + "\n", post.err());
    }
}
