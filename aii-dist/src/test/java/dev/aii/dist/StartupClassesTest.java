package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The short commands start small: {@code bin/aii} run with
 * {@code AII_JAVA_OPTS=-Xlog:class+load} loads no backend, no JSON library,
 * no parser, no line editor and no native linker for them.
 */
class StartupClassesTest {

    /** Class name prefixes that none of the short commands may load. */
    private static final List<String> FORBIDDEN_PREFIXES = List.of(
            "dev.aii.openai.", "dev.aii.ffm.", "com.fasterxml.", "picocli.", "org.jline.");

    /** The FFM linker's classes (the JVM itself loads a few other jdk.internal.foreign classes at every start). */
    private static final List<String> FORBIDDEN_CLASSES = List.of(
            "java.lang.foreign.Linker", "java.lang.foreign.SymbolLookup", "jdk.internal.foreign.abi.AbstractLinker",
            "jdk.internal.foreign.abi.SharedUtils");

    @TempDir
    static Path home;

    @BeforeAll
    static void needsPackagedJars() {
        assumeTrue(Run.packaged(), "aii-cli is not packaged: run ./mvnw verify");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "--version", "--list-allowed", "-h"})
    void shortCommandsLoadNoBackendJsonParserOrNativeCode(String flag) throws IOException {
        List<String> loaded = classesLoadedBy(flag);
        assertTrue(loaded.contains("dev.aii.cli.Main"), "the class log works: " + loaded.size() + " classes");
        for (String name : loaded) {
            for (String prefix : FORBIDDEN_PREFIXES) {
                assertTrue(!name.startsWith(prefix), flag + " loaded " + name);
            }
            assertTrue(!FORBIDDEN_CLASSES.contains(name), flag + " loaded " + name);
        }
    }

    @Test
    void aFullCommandLineIsParsedByPicocli() throws IOException {
        // The control: the same log does show picocli when the parser is needed (an option aii does not know,
        // which picocli reports with its usage line).
        List<String> loaded = classesLoadedBy(2, "--list-allowed", "--no-such-option");
        assertTrue(loaded.contains("picocli.CommandLine"), "picocli parses a command line it has to report on");
    }

    private static List<String> classesLoadedBy(String... args) throws IOException {
        return classesLoadedBy(0, args);
    }

    private static List<String> classesLoadedBy(int status, String... args) throws IOException {
        Path log = Files.createTempFile(home, "classes", ".log");
        List<String> command = new java.util.ArrayList<>(List.of(Run.ROOT.resolve("bin/aii").toString()));
        command.addAll(List.of(args));
        Run run = Run.of(Map.of("HOME", home.toString(), "AII_JAVA_OPTS", "-Xlog:class+load:file=" + log), command);
        assertEquals(status, run.status(), run.err());
        if (status == 0) {
            assertEquals("", run.err());
        }
        return Files.readAllLines(log).stream()
                .filter(line -> line.contains(" source: "))
                .map(line -> line.substring(line.indexOf("] ", line.indexOf("[class,load")) + 2))
                .map(line -> line.substring(0, line.indexOf(' ')))
                .toList();
    }
}
