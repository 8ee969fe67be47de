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
    void theVariableIsTheOnlyPlaceTriedWhenSet(@TempDir Path dir) {
        List<ShimLoader.Place> places = ShimLoader.places(Map.of("AII_SHIM_LIBRARY", "/x/libfmshim.so"),
                linux(dir.resolve("share/aii")), "libfmshim.so");
        assertEquals(List.of("AII_SHIM_LIBRARY=/x/libfmshim.so"), labels(places));
    }

    @Test
    void withoutTheVariablePlacesAreBesideTheJarThenItsLibThenTheLibraryPath(@TempDir Path dir) {
        Path jars = dir.resolve("share/aii");
        List<ShimLoader.Place> places = ShimLoader.places(Map.of(), linux(jars), "libfmshim.so");
        assertEquals(List.of(
                jars.resolve("libfmshim.so").toString(),
                dir.resolve("share/lib/libfmshim.so").toString(),
                LIBRARY_PATH_LABEL), labels(places));
    }

    @Test
    void aMissingFileInTheVariableIsAnErrorNamingItEvenWithAShimBesideTheJar(@TempDir Path dir) throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("libfmshim.so"), StubShim.PATH);
        try {
            Path missing = dir.resolve("typo/libfmshim.so");
            ShimLoader.Failed failed = assertInstanceOf(ShimLoader.Failed.class,
                    ShimLoader.load(Map.of("AII_SHIM_LIBRARY", missing.toString()), linux(dir)));
            assertEquals(List.of("AII_SHIM_LIBRARY=" + missing + ": no such file"), failed.tried());
            assertEquals(List.of("Cannot load the Foundation Models shim library libfmshim.so",
                    "tried AII_SHIM_LIBRARY=" + missing + ": no such file"), failed.problem().lines());
        } finally {
            Files.delete(link);
        }
    }

    @Test
    void aDirectoryOrANonLibraryInTheVariableIsAnErrorNamingIt(@TempDir Path dir) throws IOException {
        ShimLoader.Failed directory = assertInstanceOf(ShimLoader.Failed.class,
                ShimLoader.load(Map.of("AII_SHIM_LIBRARY", dir.toString()), linux(null)));
        assertEquals(List.of("AII_SHIM_LIBRARY=" + dir + ": not a file"), directory.tried());

        Path text = Files.writeString(dir.resolve("libfmshim.so"), "not a library");
        ShimLoader.Failed notALibrary = assertInstanceOf(ShimLoader.Failed.class,
                ShimLoader.load(Map.of("AII_SHIM_LIBRARY", text.toString()), linux(null)));
        assertEquals(1, notALibrary.tried().size());
        assertTrue(notALibrary.tried().get(0).startsWith("AII_SHIM_LIBRARY=" + text + ": "), notALibrary.tried().get(0));
    }

    @Test
    void theVariableNamingTheShimLoadsIt() {
        assertInstanceOf(ShimLoader.Loaded.class, ShimLoader.load(StubShim.environment(), linux(null)));
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
        ShimLoader.Result result = ShimLoader.load(Map.of(), linux(dir));
        ShimLoader.Failed failed = assertInstanceOf(ShimLoader.Failed.class, result);
        assertEquals(3, failed.tried().size());
        assertTrue(failed.tried().get(0).startsWith(notALibrary + ": "), failed.tried().get(0));
        assertTrue(failed.tried().get(0).length() > (notALibrary + ": ").length(), failed.tried().get(0));
        assertEquals(dir.getParent().resolve("lib/libfmshim.so") + ": no such file", failed.tried().get(1));
        assertTrue(failed.tried().get(2).startsWith(LIBRARY_PATH_LABEL + ": "), failed.tried().get(2));

        ModelException problem = failed.problem();
        assertEquals(ErrorCode.INTERNAL_ERROR, problem.code());
        assertEquals("Cannot load the Foundation Models shim library libfmshim.so", problem.lines().get(0));
        assertEquals("tried " + failed.tried().get(0), problem.lines().get(1));
        assertEquals(4, problem.lines().size());
        assertEquals(Optional.of(String.join("; ", failed.tried())), problem.detail());
    }
}
