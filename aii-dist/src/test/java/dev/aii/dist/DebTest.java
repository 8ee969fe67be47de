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
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The .deb of dist/deb.sh: its control fields and files as dpkg-deb reads
 * them, then installed into a scratch root and run. As root that is a real
 * {@code dpkg --root} install and purge (maintainer scripts outside a chroot,
 * with DPKG_ROOT); otherwise the package is unpacked and its postinst run as
 * dpkg would.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DebTest {

    static final String VERSION = TarballSmokeTest.VERSION;
    /** dpkg wants ldconfig and start-stop-daemon on the PATH, which a user's PATH may not have. */
    static final Map<String, String> DPKG = Map.of("PATH",
            "/usr/local/sbin:/usr/sbin:/sbin:" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    static Path deb;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build() {
        deb = Packages.deb();
    }

    private static String field(String info, String name) {
        return info.lines().map(String::strip).filter(l -> l.startsWith(name + ": ")).findFirst()
                .map(l -> l.substring(name.length() + 2)).orElseThrow(() -> new AssertionError(name + " in\n" + info));
    }

    @Test
    void theControlFieldsNameThePackageAndTheLibrariesItsFilesNeed() {
        String arch = Run.of(Map.of(), "dpkg", "--print-architecture").ok().out().strip();
        assertEquals("aii_" + VERSION + "-1_" + arch + ".deb", deb.getFileName().toString());
        String info = Run.of(Map.of(), "dpkg-deb", "--info", deb.toString()).ok().out();
        assertEquals("aii", field(info, "Package"));
        assertEquals(VERSION + "-1", field(info, "Version"));
        assertEquals(arch, field(info, "Architecture"));
        // What dpkg-shlibdeps finds: the C library, with the least version the runtime's symbols need.
        assertTrue(field(info, "Depends").matches("libc6 \\(>= 2\\.[0-9]+\\)(, [a-z0-9.+-]+( \\([^)]*\\))?)*"),
                field(info, "Depends"));
        assertTrue(Integer.parseInt(field(info, "Installed-Size")) > 10_000, info);
        assertTrue(info.contains(" postinst "), info);
        assertTrue(info.contains(" prerm "), info);
    }

    @Test
    void theFilesAreInTheirDebianPlacesOwnedByRootAndNoCacheIsPackaged() {
        List<String> lines = Run.of(Map.of(), "dpkg-deb", "--contents", deb.toString()).ok().out().lines().toList();
        List<String> paths = lines.stream().map(l -> l.substring(l.indexOf("./"))).map(p -> p.replaceFirst(" -> .*", ""))
                .toList();
        for (String needed : List.of("./usr/bin/aii", "./usr/lib/aii/runtime/bin/java", "./usr/lib/aii/runtime/lib/modules",
                "./usr/lib/aii/aot-caches", "./usr/lib/aii/native/", "./usr/share/man/man1/aii.1.gz",
                "./usr/share/bash-completion/completions/aii", "./usr/share/zsh/vendor-completions/_aii",
                "./usr/share/doc/aii/copyright", "./usr/share/doc/aii/licenses/README",
                "./usr/share/doc/aii/licenses/openjdk/java.base/LICENSE")) {
            assertTrue(paths.contains(needed), needed + " in\n" + String.join("\n", paths));
        }
        assertTrue(lines.stream().filter(l -> l.endsWith(" ./usr/bin/aii")).allMatch(l -> l.startsWith("-rwxr-xr-x ")));
        for (String line : lines) {
            assertTrue(line.contains(" root/root "), line);
        }
        for (String path : paths) {
            assertTrue(path.equals("./") || path.startsWith("./usr/"), path);
            assertFalse(path.endsWith(".aot") || path.endsWith(".aot.key"), path);
        }
    }

    @Test
    void installedIntoAScratchRootItRunsFromTheCachesPostinstMadeAndLeavesNothingWhenPurged() throws IOException {
        Path root = tmp.resolve("root");
        boolean dpkg = "0".equals(Run.of(Map.of(), "id", "-u").ok().out().strip());
        if (dpkg) {
            for (String dir : List.of("var/lib/dpkg/info", "var/lib/dpkg/updates")) {
                Files.createDirectories(root.resolve(dir));
            }
            Files.createFile(root.resolve("var/lib/dpkg/status"));
            Run.of(DPKG, "dpkg", "--root=" + root, "--force-script-chrootless", "--force-depends", "-i",
                    deb.toString()).ok();
        } else {
            Run.of(Map.of(), "dpkg-deb", "-x", deb.toString(), root.toString()).ok();
            Run.of(Map.of(), "dpkg-deb", "-e", deb.toString(), tmp.resolve("control").toString()).ok();
            Run.of(Map.of("DPKG_ROOT", root.toString()), "sh", tmp.resolve("control/postinst").toString(), "configure")
                    .ok();
        }
        Unpacked aii = Unpacked.in(root.resolve("usr"), tmp);
        assertEquals(new Run(0, "aii " + VERSION + "\n", ""), aii.run("--version"));
        for (String name : AotCachesTest.CACHES) {
            Path cache = aii.lib().resolve(name);
            assertTrue(Files.size(cache) > 1_000_000, cache.toString());
            assertEquals(aii.lib().resolve("runtime").toString(), aii.keyOf(cache));
        }
        assertTrue(aii.startsFromACache(Map.of(), "--version"));
        assertEquals(new Run(0, "allow (rule: ls)\n", ""), aii.run("--check", "ls", "-la"));
        String page = Run.of(Map.of(), "sh", "-c", "gzip -dc '" + root + "/usr/share/man/man1/aii.1.gz'").ok().out();
        assertTrue(page.contains("\n.TH AII 1 "), page);

        if (dpkg) {
            Run.of(DPKG, "dpkg", "--root=" + root, "--force-script-chrootless", "--force-depends", "--purge",
                    "aii").ok();
            try (Stream<Path> left = Files.walk(root)) {
                assertEquals(List.of(), left.filter(p -> !p.startsWith(root.resolve("var"))).filter(p -> !p.equals(root))
                        .toList(), "prerm removed the caches, dpkg the rest");
            }
        }
    }
}
