package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Homebrew formula: dist/homebrew/formula.sh fills in a release's version
 * and checksum; the filled formula is Ruby that parses, and its install,
 * post_install and test blocks, run by a small stand-in for Homebrew's DSL
 * (formula_check.rb) on the unpacked tarball (the macOS one has the same
 * layout), give a keg whose bin/aii runs from its startup caches.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FormulaTest {

    static final String VERSION = TarballSmokeTest.VERSION;
    static final String SUM = "5ba16bfa359cb7c009cf5abf13352207a303d76bdfdc0e82c985188cd3c9d577";

    @TempDir
    Path tmp;

    private Run formula(String sumLine, String fileName) throws IOException {
        Path file = Files.writeString(tmp.resolve(fileName), sumLine);
        return Run.of(Map.of(), "sh", "dist/homebrew/formula.sh", file.toString());
    }

    private Path filled() throws IOException {
        String name = "aii-" + VERSION + "-macos-arm64.tar.gz";
        Path rb = tmp.resolve("aii.rb");
        Files.writeString(rb, formula(SUM + "  " + name + "\n", name + ".sha256").ok().out());
        return rb;
    }

    @Test
    void theVersionAndTheChecksumOfTheMacosTarballAreFilledIn() throws IOException {
        String rb = Files.readString(filled());
        assertTrue(rb.contains("\n  url \"https://github.com/aii-dev/aii/releases/download/v" + VERSION + "/aii-"
                + VERSION + "-macos-arm64.tar.gz\"\n"), rb);
        assertTrue(rb.contains("\n  version \"" + VERSION + "\"\n"), rb);
        assertTrue(rb.contains("\n  sha256 \"" + SUM + "\"\n"), rb);
        assertFalse(rb.contains("@"), rb);
    }

    @Test
    void aChecksumOfAnotherFileOrNoChecksumIsRefused() throws IOException {
        Path linux = tmp.resolve("aii-" + VERSION + "-linux-x86_64.tar.gz.sha256");
        assertEquals(new Run(1, "", "aii: " + linux + " is not the checksum of a macOS arm64 tarball: it names aii-"
                + VERSION + "-linux-x86_64.tar.gz\n"),
                formula(SUM + "  aii-" + VERSION + "-linux-x86_64.tar.gz\n", linux.getFileName().toString()));
        String name = "aii-" + VERSION + "-macos-arm64.tar.gz";
        Path bad = tmp.resolve(name + ".sha256");
        assertEquals(new Run(1, "", "aii: " + bad + " holds no SHA-256 checksum\n"),
                formula("not-a-sum  " + name + "\n", name + ".sha256"));
    }

    @Test
    void theFilledFormulaParsesAndInstallsAKegThatRuns() throws IOException {
        assumeTrue(Run.onPath("ruby"), "ruby is not installed (.ci/run installs it)");
        Path rb = filled();
        assertEquals(new Run(0, "Syntax OK\n", ""), Run.of(Map.of(), "ruby", "-c", rb.toString()));

        Path staged = Packages.unpack(tmp.resolve("staged"));
        Path keg = tmp.resolve("Cellar/aii/" + VERSION);
        Path check = tmp.resolve("formula_check.rb");
        try (InputStream in = FormulaTest.class.getResourceAsStream("formula_check.rb")) {
            Files.copy(in, check);
        }
        Path home = Files.createDirectories(tmp.resolve("home"));
        Run run = Run.of(Map.of(), "/usr/bin/env", "-i", "PATH=" + Unpacked.PATH, "HOME=" + home, "ruby",
                check.toString(), rb.toString(), staged.toString(), keg.toString()).ok();
        Path lib = keg.resolve("libexec/lib/aii");
        List<String> expected = List.of(
                "aii: " + lib.resolve("aii.aot") + ": checked, the JVM takes it here",
                "aii: " + lib.resolve("aii-prompt.aot") + ": checked, the JVM takes it here",
                "desc=\"Ask a local language model from the command line, commands run on approval\"",
                "homepage=\"https://aii.dev\"",
                "url=\"https://github.com/aii-dev/aii/releases/download/v" + VERSION + "/aii-" + VERSION
                        + "-macos-arm64.tar.gz\"",
                "version=\"" + VERSION + "\"",
                "sha256=\"" + SUM + "\"",
                "license=\"Apache-2.0\"",
                "depends_on=[{:arch=>:arm64}, :macos]");
        assertEquals(expected, run.out().lines().toList(), run.err());

        assertEquals(keg.resolve("libexec/bin/aii"), Files.readSymbolicLink(keg.resolve("bin/aii")));
        for (String link : List.of("share/man/man1/aii.1", "etc/bash_completion.d/aii", "share/zsh/site-functions/_aii")) {
            assertTrue(Files.isRegularFile(keg.resolve(link)), link);
        }
        Unpacked brewed = new Unpacked(keg, home);
        assertEquals(new Run(0, "aii " + VERSION + "\n", ""), brewed.run("--version"));
        assertTrue(brewed.startsFromACache(Map.of(), "--version"));
    }
}
