package dev.aii.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The release packages the tests check, made once for the whole test JVM
 * (one jlink, one training, one tarball): {@code dist/tarball.sh} and
 * {@code dist/deb.sh} into {@code aii-dist/target/packages}. The release
 * workflow hands in the ones it built instead, through the system properties
 * {@code aii.dist.tarball} and {@code aii.dist.deb}.
 */
final class Packages {

    static final Path OUT = Run.ROOT.resolve("aii-dist/target/packages");

    private static Path tarball;
    private static Path deb;

    private Packages() {
    }

    /** The release tarball of this machine. */
    static synchronized Path tarball() {
        if (tarball == null) {
            tarball = given("aii.dist.tarball").orElseGet(() -> {
                if (!Run.packaged()) {
                    throw new AssertionError("aii-cli is not packaged: run ./mvnw verify");
                }
                // A fresh directory: a .deb of an earlier version must not be taken for this one's.
                Run.of(Map.of(), "rm", "-rf", OUT.toString()).ok();
                Run.of(Map.of(), "sh", "dist/tarball.sh", OUT.toString()).ok();
                return OUT.resolve(name() + ".tar.gz");
            });
        }
        return tarball;
    }

    /** The .deb made from {@link #tarball()} (gzip inside rather than xz, which takes the suite 20 s more). */
    static synchronized Path deb() {
        if (deb == null) {
            deb = given("aii.dist.deb").orElseGet(() -> {
                Run.of(Map.of("DEB_COMPRESSION", "gzip"), "sh", "dist/deb.sh", tarball().toString(), OUT.toString())
                        .ok();
                try (var files = Files.list(OUT)) {
                    List<Path> debs = files.filter(p -> p.getFileName().toString().endsWith(".deb")).toList();
                    if (debs.size() != 1) {
                        throw new AssertionError("not one .deb in " + OUT + ": " + debs);
                    }
                    return debs.getFirst();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return deb;
    }

    /** {@code aii-<version>-<os>-<arch>}, the tarball's name and its top directory. */
    static String name() {
        String file = tarball == null ? null : tarball.getFileName().toString();
        if (file != null) {
            return file.substring(0, file.length() - ".tar.gz".length());
        }
        return Run.of(Map.of(), "sh", "dist/tarball.sh", "--name").ok().out().strip();
    }

    /** Unpacks the tarball into {@code dir}, as a user would, and returns the top directory it made. */
    static Path unpack(Path dir) throws IOException {
        Files.createDirectories(dir);
        Run.of(Map.of(), "tar", "-xzf", tarball().toString(), "-C", dir.toString()).ok();
        return dir.resolve(name());
    }

    private static java.util.Optional<Path> given(String property) {
        return java.util.Optional.ofNullable(System.getProperty(property)).filter(s -> !s.isBlank())
                .map(s -> Path.of(s).toAbsolutePath());
    }
}
