package dev.aii.ffm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The macOS version gate, as os.version reads with and without SYSTEM_VERSION_COMPAT; where the jars are. */
class HostTest {

    @ParameterizedTest(name = "{0} {1} >= {2}.{3}: {4}")
    @CsvSource({
        "Mac OS X, 26.0, 26, 0, true",
        "Mac OS X, 26.3.1, 26, 4, false",
        "Mac OS X, 26.4, 26, 4, true",
        "Mac OS X, 27.0, 26, 4, true",
        "Mac OS X, 15.6, 26, 0, false",
        // SYSTEM_VERSION_COMPAT=1: macOS 26.x says 16.x, macOS 27.x says 17.x.
        "Mac OS X, 16.0, 26, 0, true",
        "Mac OS X, 16.3, 26, 4, false",
        "Mac OS X, 16.4, 26, 4, true",
        "Mac OS X, 17.0, 27, 0, true",
        "Mac OS X, 16.7, 27, 0, false",
        // Big Sur's compatibility version stays what it is.
        "Mac OS X, 10.16, 26, 0, false",
        "Mac OS X, garbage, 26, 0, false",
        // Only macOS has compatibility versions: Linux 16.1 is Linux 16.1.
        "Linux, 16.1, 26, 0, false",
    })
    void versionAtLeast(String os, String version, int major, int minor, boolean expected) {
        assertEquals(expected, new Host(os, version, Optional.empty()).versionAtLeast(major, minor));
    }

    @Test
    void theJarDirectoryIsTheJarsParentOrTheClassesDirectoryItself(@TempDir Path dir) throws Exception {
        Path jar = Files.createFile(dir.resolve("aii-ffm.jar"));
        assertEquals(Optional.of(dir), Host.directoryOf(jar.toUri()));
        assertEquals(Optional.of(dir), Host.directoryOf(dir.toUri()));
    }

    @Test
    void aModuleLinkedIntoTheRuntimeHasNoJarDirectory() {
        assertEquals(Optional.empty(), Host.directoryOf(URI.create("jrt:/dev.aii.ffm")));
    }
}
