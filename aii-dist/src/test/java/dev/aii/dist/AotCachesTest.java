package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The startup caches of an unpacked tarball (dist/aot-caches.sh through
 * bin/aii): made again by the first run in a place when the JVM refuses them
 * or they are missing, once, with no half-written file, not tried again after
 * a failure until {@code aii --post-install}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AotCachesTest {

    static final String VERSION_LINE = "aii " + TarballSmokeTest.VERSION + "\n";
    static final List<String> CACHES = List.of("aii.aot", "aii-prompt.aot");

    @TempDir
    Path tmp;

    private Unpacked fresh() throws IOException {
        return Unpacked.in(Packages.unpack(tmp.resolve("place")), tmp);
    }

    /** A fresh image without the named caches (the short commands' one trains in a third of the prompt one's time). */
    private Unpacked freshWithout(String... names) throws IOException {
        Unpacked aii = fresh();
        for (String name : names) {
            Files.delete(aii.lib().resolve(name));
            Files.delete(aii.lib().resolve(name + ".key"));
        }
        return aii;
    }

    /** Whether the JVM starts aii with this cache and refuses to start without it (-XX:AOTMode=on). */
    private static boolean theJvmTakes(Unpacked aii, Path cache) {
        return aii.run(Map.of("AII_AOT_CACHE", cache.toString(), "AII_JAVA_OPTS", "-XX:AOTMode=on"), "--version")
                .equals(new Run(0, VERSION_LINE, ""));
    }

    private static void assertMadeHere(Unpacked aii, Path dir) throws IOException {
        for (String name : CACHES) {
            Path cache = dir.resolve(name);
            assertTrue(Files.size(cache) > 1_000_000, cache + " is a cache");
            assertEquals(aii.lib().resolve("runtime").toString(), aii.keyOf(cache));
            assertTrue(theJvmTakes(aii, cache), cache.toString());
        }
        assertTrue(aii.startsFromACache(Map.of(), "--version"));
        assertEquals(List.of(), debris(aii), "no lock, temporary file or note left");
    }

    /** The lock directory of aot-caches, as a run with this process id takes it. */
    private static Path lockedBy(Unpacked aii, long pid) throws IOException {
        Path lock = Files.createDirectories(aii.lib().resolve(".aot-lock"));
        Files.writeString(lock.resolve("pid"), pid + "\n");
        return lock;
    }

    private static List<String> debris(Unpacked aii) throws IOException {
        try (var files = Files.list(aii.lib())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).sorted().toList();
        }
    }

    @Test
    void aCacheTheJvmRefusesIsMadeAgainByTheFirstRunAndTheOtherOnlyChecked() throws IOException {
        Unpacked aii = fresh();
        Path prompt = aii.lib().resolve("aii-prompt.aot");
        FileTime shipped = Files.getLastModifiedTime(prompt);
        Files.writeString(aii.lib().resolve("aii.aot"), "not a cache");
        assertFalse(theJvmTakes(aii, aii.lib().resolve("aii.aot")));

        assertEquals(new Run(0, VERSION_LINE, ""), aii.run("--version"));
        assertMadeHere(aii, aii.lib());
        assertEquals(shipped, Files.getLastModifiedTime(prompt));
    }

    @Test
    void missingCachesAreMadeByTheFirstRunAndTheSecondStartsFromThem() throws IOException {
        Unpacked aii = freshWithout("aii.aot", "aii-prompt.aot");
        assertEquals(new Run(0, "allow (rule: ls)\n", ""), aii.run("--check", "ls", "-la"));
        assertMadeHere(aii, aii.lib());
    }

    @Test
    void aFirstRunThatFindsThemBeingMadeGoesOnWithoutThem() throws IOException {
        Unpacked aii = freshWithout("aii.aot");
        Path lock = lockedBy(aii, ProcessHandle.current().pid());

        assertEquals(new Run(0, VERSION_LINE, ""), aii.run("--version"));
        assertFalse(Files.exists(aii.lib().resolve("aii.aot")));
        assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(lock.resolve("pid")), "the lock is theirs");

        Files.delete(lock.resolve("pid"));
        Files.delete(lock);
        assertEquals(new Run(0, VERSION_LINE, ""), aii.run("--version"));
        assertMadeHere(aii, aii.lib());
    }

    @Test
    void aLockLeftByARunThatDiedIsTakenOver() throws Exception {
        Unpacked aii = freshWithout("aii.aot");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        lockedBy(aii, gone.pid());

        assertEquals(new Run(0, VERSION_LINE, ""), aii.run("--version"));
        assertMadeHere(aii, aii.lib());
    }

    @Test
    void firstRunsAtOnceLeaveOneGoodSetOfCachesAndNothingElse() throws Exception {
        Unpacked aii = freshWithout("aii.aot");
        List<CompletableFuture<Run>> runs = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (String[] args : List.of(new String[] {"--version"}, new String[] {"--version"},
                    new String[] {"--list-allowed"})) {
                runs.add(CompletableFuture.supplyAsync(() -> aii.run(args), threads));
            }
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
        }
        assertEquals(new Run(0, VERSION_LINE, ""), runs.get(0).join());
        assertEquals(new Run(0, VERSION_LINE, ""), runs.get(1).join());
        assertTrue(runs.get(2).join().out().startsWith("# source: built-in defaults (no config file)\n"));
        // One of them made them; if another run came later, it found them made.
        assertMadeHere(aii, aii.lib());
    }

    @Test
    void aFailedTrainingIsNotTriedAgainByFirstRunsButByPostInstall() throws IOException {
        Unpacked aii = freshWithout("aii.aot");
        // A JVM option of the user's that makes every training fail.
        Run refused = aii.run(Map.of("JAVA_TOOL_OPTIONS", "-XX:AOTMode=off"), "--version");
        assertEquals(VERSION_LINE, refused.out());
        assertEquals(aii.lib().resolve("runtime") + "\n\n", Files.readString(aii.lib().resolve(".aot-failed")));

        assertEquals(new Run(0, VERSION_LINE, ""), aii.run("--version"));
        assertFalse(Files.exists(aii.lib().resolve("aii.aot")), "not tried again");

        Path lib = aii.lib();
        assertEquals(new Run(0, "aii: " + lib.resolve("aii.aot") + ": made\naii: " + lib.resolve("aii-prompt.aot")
                + ": checked, the JVM takes it here\n", ""), aii.run("--post-install"));
        assertMadeHere(aii, lib);
    }

    @Test
    void postInstallChecksEachCacheAndSaysWhatItDid() throws IOException {
        Unpacked aii = fresh();
        Path lib = aii.lib();
        assertEquals(new Run(0, "aii: " + lib.resolve("aii.aot") + ": checked, the JVM takes it here\naii: "
                + lib.resolve("aii-prompt.aot") + ": checked, the JVM takes it here\n", ""), aii.run("--post-install"));
        assertMadeHere(aii, lib);
    }
}
