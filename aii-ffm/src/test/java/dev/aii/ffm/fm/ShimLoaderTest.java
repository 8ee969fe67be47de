package dev.aii.ffm.fm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimLoaderTest {

    private static final String LIBRARY_PATH_LABEL =
            "java.library.path (" + System.getProperty("java.library.path", "") + ")";

    private static Host linux(Path jarDirectory) {
        return new Host("Linux", "6.1", Optional.ofNullable(jarDirectory));
    }

    private static List<String> labels(List<ShimLoader.Place> places) {
        return places.stream().map(ShimLoader.Place::label).toList();
    }

    @Test
    void theLibraryIsCalledLibfmshimDylibOnMacOsAndLibfmshimSoElsewhere() {
        assertEquals("libfmshim.dylib", ShimLoader.libraryFileName(new Host("Mac OS X", "26.4", Optional.empty())));
        assertEquals("libfmshim.so", ShimLoader.libraryFileName(linux(null)));
    }

    @Test
    void placesAreTheVariableThenBesideTheJarThenItsLibThenTheLibraryPath(@TempDir Path dir) {
        Path jars = dir.resolve("share/aii");
        List<ShimLoader.Place> places = ShimLoader.places(Map.of("AII_SHIM_LIBRARY", "/x/libfmshim.so"), linux(jars),
                "libfmshim.so");
        assertEquals(List.of(
                "AII_SHIM_LIBRARY=/x/libfmshim.so",
                jars.resolve("libfmshim.so").toString(),
                dir.resolve("share/lib/libfmshim.so").toString(),
                LIBRARY_PATH_LABEL), labels(places));
    }

    @Test
    void jarsInALibDirectoryMakeItOnePlaceTriedOnce(@TempDir Path dir) {
        Path lib = dir.resolve("share/aii/lib");
        List<ShimLoader.Place> places = ShimLoader.places(Map.of(), linux(lib), "libfmshim.so");
        assertEquals(List.of(lib.resolve("libfmshim.so").toString(), LIBRARY_PATH_LABEL), labels(places));
    }

    @Test
    void anEmptyVariableAndAnUnknownJarDirectoryAreSkipped() {
        List<ShimLoader.Place> places = ShimLoader.places(Map.of("AII_SHIM_LIBRARY", ""), linux(null), "libfmshim.so");
        assertEquals(List.of(LIBRARY_PATH_LABEL), labels(places));
    }

    @Test
    void theShimIsFoundBesideTheJar(@TempDir Path dir) throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("libfmshim.so"), StubShim.PATH);
        try {
            assertInstanceOf(ShimLoader.Loaded.class, ShimLoader.load(Map.of(), linux(dir)));
        } finally {
            Files.delete(link);
        }
    }

    @Test
    void theShimIsFoundInTheLibDirectoryNextToTheJars(@TempDir Path dir) throws IOException {
        Path jars = Files.createDirectories(dir.resolve("share"));
        Files.createDirectories(dir.resolve("lib"));
        Path link = Files.createSymbolicLink(dir.resolve("lib/libfmshim.so"), StubShim.PATH);
        try {
            assertInstanceOf(ShimLoader.Loaded.class, ShimLoader.load(Map.of(), linux(jars)));
        } finally {
            // The link itself, not the stub it points to.
            Files.delete(link);
        }
    }

    @Test
    void aFailureNamesEveryPlaceTriedAndWhy(@TempDir Path dir) throws IOException {
        Path notALibrary = Files.writeString(dir.resolve("libfmshim.so"), "not a library");
        ShimLoader.Result result = ShimLoader.load(Map.of("AII_SHIM_LIBRARY", dir.resolve("missing.so").toString()),
                linux(dir));
        ShimLoader.Failed failed = assertInstanceOf(ShimLoader.Failed.class, result);
        assertEquals(4, failed.tried().size());
        assertEquals("AII_SHIM_LIBRARY=" + dir.resolve("missing.so") + ": no such file", failed.tried().get(0));
        assertTrue(failed.tried().get(1).startsWith(notALibrary + ": "), failed.tried().get(1));
        assertTrue(failed.tried().get(1).length() > (notALibrary + ": ").length(), failed.tried().get(1));
        assertEquals(dir.getParent().resolve("lib/libfmshim.so") + ": no such file", failed.tried().get(2));
        assertTrue(failed.tried().get(3).startsWith(LIBRARY_PATH_LABEL + ": "), failed.tried().get(3));

        ModelException problem = failed.problem();
        assertEquals(ErrorCode.INTERNAL_ERROR, problem.code());
        assertEquals("Cannot load the Foundation Models shim library libfmshim.so", problem.lines().get(0));
        assertEquals("tried " + failed.tried().get(0), problem.lines().get(1));
        assertEquals(5, problem.lines().size());
        assertEquals(Optional.of(String.join("; ", failed.tried())), problem.detail());
    }
}
