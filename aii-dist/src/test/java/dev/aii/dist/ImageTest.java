package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the image inside the tarball is made of: its own trimmed runtime
 * with aii's modules linked in (no jar, no module path), the modules the
 * descriptors require and nothing more, and a download within its size.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ImageTest {

    /** The release tarball's limit. */
    static final long MAX_TARBALL_BYTES = 45_000_000;

    @TempDir
    static Path tmp;
    static Unpacked aii;

    @BeforeAll
    static void unpack() throws IOException {
        aii = Unpacked.in(Packages.unpack(tmp), tmp);
    }

    private static List<String> modules(Run listing) {
        return listing.ok().out().lines().map(l -> l.replaceFirst("@.*", "")).sorted().toList();
    }

    @Test
    void aiiRunsOnTheImagesOwnRuntime() {
        Run run = aii.run(Map.of("AII_JAVA_OPTS", "-XshowSettings:properties"), "--version");
        assertTrue(run.out().startsWith("aii " + TarballSmokeTest.VERSION + "\n"), run.out());
        assertTrue(run.err().contains("java.home = " + aii.lib().resolve("runtime") + "\n"), run.err());
        assertTrue(run.err().contains("java.library.path = " + aii.lib().resolve("native") + "\n"), run.err());
        assertFalse(run.err().contains("jdk.module.path"), "no module path: " + run.err());
    }

    @Test
    void everyShellAtHandRunsTheImagesLauncher() {
        for (String shell : List.of("sh", "dash", "bash", "zsh", "ksh", "mksh", "yash")) {
            if (Run.onPath(shell)) {
                List<String> command = new java.util.ArrayList<>(aii.command(Map.of(), List.of("--version")));
                command.add(command.size() - 2, shell);
                assertEquals(new Run(0, "aii " + TarballSmokeTest.VERSION + "\n", ""), Run.of(Map.of(), command), shell);
            }
        }
    }

    @Test
    void theRuntimeHoldsWhatTheDescriptorsRequireAndNoJar() throws IOException {
        Path java = aii.lib().resolve("runtime/bin/java");
        List<String> linked = modules(Run.of(Map.of(), java.toString(), "--list-modules"));
        // The same closure, computed by the build's JDK from the jars: what dev.aii.cli requires, transitively.
        String jdk = Run.of(Map.of(), "bin/find-jdk").ok().out().strip();
        List<String> required = modules(Run.of(Map.of(), jdk + "/bin/java", "--module-path", Run.LIB.toString(),
                "--limit-modules", "dev.aii.cli,jdk.charsets", "--list-modules"));
        assertEquals(required, linked);
        assertTrue(linked.containsAll(List.of("dev.aii.cli", "dev.aii.core", "dev.aii.ffm", "dev.aii.openai")), "" + linked);
        // The runtime's own jrt-fs.jar (for tools that read a runtime image from outside) is the only jar.
        try (Stream<Path> files = Files.walk(aii.root())) {
            assertEquals(List.of(aii.lib().resolve("runtime/lib/jrt-fs.jar")),
                    files.filter(p -> p.toString().endsWith(".jar")).toList());
        }
        for (String trimmed : List.of("include", "man", "jmods", "legal")) {
            assertFalse(Files.exists(aii.lib().resolve("runtime").resolve(trimmed)), trimmed);
        }
        assertTrue(Files.isDirectory(aii.lib().resolve("native")));
    }

    @Test
    void theTarballStaysWithinItsSizeAndItsChecksumMatches() throws IOException {
        Path tarball = Packages.tarball();
        assertTrue(Files.size(tarball) <= MAX_TARBALL_BYTES, tarball + ": " + Files.size(tarball) + " bytes");
        Path sum = Path.of(tarball + ".sha256");
        assertTrue(Files.readString(sum).matches("[0-9a-f]{64}  " + tarball.getFileName() + "\n"), Files.readString(sum));
        assertEquals(List.of(tarball.toString(), sum.toString()),
                Run.of(Map.of(), "sh", "dist/checksum.sh", "--check", tarball.getParent().toString()).ok().out().lines()
                        .filter(l -> l.contains(".tar.gz")).toList());
    }

    @Test
    void theTagOfAReleaseMustBeTheBuiltVersion() {
        String version = TarballSmokeTest.VERSION;
        Run.of(Map.of(), "sh", "dist/tarball.sh", "--tag", "v" + version).ok();
        assertEquals(new Run(1, "", "aii: the tag v99.0 is not the version that was built, " + version + " (tag v"
                + version + ")\n"), Run.of(Map.of(), "sh", "dist/tarball.sh", "--tag", "v99.0"));
    }
}
