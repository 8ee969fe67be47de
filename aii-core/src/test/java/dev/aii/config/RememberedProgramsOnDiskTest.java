package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aii.policy.Decision;
import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FileProbe;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process's environment remembers where it found each program along
 * PATH, and what it remembers never outlives the file: a program removed or
 * replaced during the run resolves as a fresh search would.
 */
class RememberedProgramsOnDiskTest {

    @TempDir
    Path root;

    private Path first;
    private Path second;
    private ExecPolicy policy;

    @BeforeEach
    void twoPathDirectories() throws IOException {
        first = Files.createDirectories(root.resolve("first"));
        second = Files.createDirectories(root.resolve("second"));
        Environment env = SystemEnvironment.of(Map.of("PATH", first + ":" + second), root);
        policy = ExecPolicy.of(RuleSet.empty(), env);
    }

    private static Path executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private Optional<String> resolved(String name) {
        return policy.resolve(name, List.of()).map(c -> c.path());
    }

    @Test
    void aProgramRemovedDuringTheRunIsNotFound() throws IOException {
        Path tool = executable(second.resolve("tool"));
        assertEquals(Optional.of(tool.toString()), resolved("tool"));

        Files.delete(tool);

        assertEquals(Optional.empty(), resolved("tool"));
        Decision.Refuse refuse = assertInstanceOf(Decision.Refuse.class, policy.evaluate("tool", List.of()));
        assertEquals("Error: executable not found: tool", refuse.message());
    }

    @Test
    void aProgramRemovedFromAnEarlierDirectoryResolvesToTheLaterOne() throws IOException {
        Path shadow = executable(first.resolve("tool"));
        Path later = executable(second.resolve("tool"));
        assertEquals(Optional.of(shadow.toString()), resolved("tool"));

        Files.delete(shadow);

        assertEquals(Optional.of(later.toString()), resolved("tool"));
    }

    @Test
    void aProgramReplacedByADirectoryOrAFileThatCannotRunIsSearchedForAgain() throws IOException {
        Path tool = executable(first.resolve("tool"));
        Path later = executable(second.resolve("tool"));
        assertEquals(Optional.of(tool.toString()), resolved("tool"));

        Files.delete(tool);
        Files.createDirectory(tool);
        assertEquals(Optional.of(later.toString()), resolved("tool"));

        Path other = executable(first.resolve("other"));
        assertEquals(Optional.of(other.toString()), resolved("other"));
        Files.setPosixFilePermissions(other, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(Optional.empty(), resolved("other"));
    }

    @Test
    void aProgramReplacedByAnotherExecutableAtTheSamePathResolvesThere() throws IOException {
        Path tool = executable(first.resolve("tool"));
        assertEquals(Optional.of(tool.toString()), resolved("tool"));

        Path replacement = executable(root.resolve("replacement"));
        Files.move(replacement, tool, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertEquals(Optional.of(tool.toString()), resolved("tool"));
    }

    @Test
    void aProgramNotFoundOnceIsFoundWhenItAppears() throws IOException {
        assertEquals(Optional.empty(), resolved("tool"));

        Path tool = executable(second.resolve("tool"));

        assertEquals(Optional.of(tool.toString()), resolved("tool"));
    }

    @Test
    void aProgramThatAppearsEarlierOnThePathIsSeenOnceTheRememberedOneGoesOrTheEnvironmentIsNew() throws IOException {
        Path later = executable(second.resolve("tool"));
        assertEquals(Optional.of(later.toString()), resolved("tool"));

        Path shadow = executable(first.resolve("tool"));

        // As a shell's hash table: what runs is still the file the decision was about.
        assertEquals(Optional.of(later.toString()), resolved("tool"));
        Environment fresh = SystemEnvironment.of(Map.of("PATH", first + ":" + second), root);
        assertEquals(shadow.toString(), ExecPolicy.of(RuleSet.empty(), fresh).resolve("tool", List.of())
                .orElseThrow().path());
        Files.delete(later);
        assertEquals(Optional.of(shadow.toString()), resolved("tool"));
    }

    @Test
    void anotherSearchPathIsSearchedOnItsOwn() throws IOException {
        Path inFirst = executable(first.resolve("tool"));
        Path inSecond = executable(second.resolve("tool"));
        FileProbe probe = FileProbe.rememberingPrograms(SystemEnvironment.fileProbe());
        List<String> found = new ArrayList<>();
        for (String path : List.of(first + ":" + second, second + ":" + first, first + ":" + second)) {
            Environment env = new Environment(path, root.toString(), probe);
            found.add(ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of()).orElseThrow().path());
        }
        assertEquals(List.of(inFirst.toString(), inSecond.toString(), inFirst.toString()), found);
    }

    @Test
    void aPathWithASlashIsLookedUpEveryTime() throws IOException {
        Path tool = executable(first.resolve("tool"));
        assertEquals(Optional.of(tool.toString()), resolved(tool.toString()));

        Files.delete(tool);

        assertEquals(Optional.empty(), resolved(tool.toString()));
    }
}
