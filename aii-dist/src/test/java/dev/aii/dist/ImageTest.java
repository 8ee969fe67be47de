package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code make image}'s script: a directory with its own Java runtime that the launcher runs on. */
class ImageTest {

    @TempDir
    Path tmp;

    @Test
    void theImageRunsOnItsOwnRuntimeWithItsStartupCacheAndStillRunsWhenMoved() throws Exception {
        assumeTrue(Run.packaged(), "aii-cli is not packaged: run ./mvnw verify");
        Path image = tmp.resolve("image");
        Run.of(Map.of(), "sh", "dist/image.sh", image.toString()).ok();
        Path home = Files.createDirectories(tmp.resolve("home"));

        Run run = Run.of(Map.of("HOME", home.toString(), "AII_JAVA_OPTS", "-XshowSettings:properties -Xlog:class+load"),
                image.resolve("bin/aii").toString(), "--version").ok();
        // With AII_JAVA_OPTS aii ends by System.exit, whose logging classes (not in the cache) load after the version.
        assertTrue(run.out().lines().anyMatch("aii 0.9.0"::equals), run.out());
        assertTrue(run.err().contains("java.home = " + image.resolve("share/aii/runtime")), run.err());
        assertTrue(run.out().contains("dev.aii.cli.Main source: shared objects file"), run.out());

        Path moved = tmp.resolve("moved");
        Files.move(image, moved);
        Run there = Run.of(Map.of("HOME", home.toString()), moved.resolve("bin/aii").toString(), "--list-allowed");
        assertEquals(new Run(0, "# source: built-in defaults (no config file)\n", ""),
                new Run(there.status(), there.out().lines().findFirst().orElse("") + "\n", there.err()));
    }
}
