package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FileProbe;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution against a real file system: symbolic links, modes and directories as the kernel sees them. */
class ResolutionOnDiskTest {

    @TempDir
    Path root;

    private Path executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The real probe, with every absolute path looked up under {@code root}: a trusted directory we may write. */
    private FileProbe under(Path root) {
        return FileProbe.executablesOnly(path -> SystemEnvironment.fileProbe().isExecutableRegularFile(root + path));
    }

    @Test
    void aSymlinkInATrustedDirectoryPointingElsewhereIsStillTrusted() throws IOException {
        Path real = executable(root.resolve("elsewhere/tool"));
        Files.createDirectories(root.resolve("usr/bin"));
        Files.createSymbolicLink(root.resolve("usr/bin/tool"), real);
        Environment env = new Environment("/usr/bin", "/", under(root));

        Decision decision = ExecPolicy.of(RuleSet.of(List.of(Rule.of("tool"))), env).evaluate("tool", List.of("-v"));

        Decision.Allow allow = assertInstanceOf(Decision.Allow.class, decision);
        assertEquals(new ResolvedCommand("tool", "/usr/bin/tool", "tool", true, List.of("-v")), allow.command());
    }

    @Test
    void aSymlinkOutsideTrustedDirectoriesPointingIntoOneIsNotTrusted() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("ls"), Path.of("/bin/sh"));
        Environment env = SystemEnvironment.of(Map.of("PATH", root.toString()), root);

        Decision decision = ExecPolicy.of(Builtins.defaults(), env).evaluate("ls", List.of());

        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(link.toString(), ask.command().path());
        assertEquals(Decision.Always.NOT_IN_SYSTEM_DIRECTORY, ask.always());
    }

    @Test
    void aProgramInARelativePathEntryIsNotFoundEvenInTheWorkingDirectory() throws IOException {
        executable(root.resolve("bin/tool"));
        executable(root.resolve("tool"));
        for (String path : List.of("bin", "./bin", ".", "", ":bin:")) {
            Environment env = SystemEnvironment.of(Map.of("PATH", path), root);
            assertEquals(Optional.empty(), ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of()), path);
        }
        Environment absolute = SystemEnvironment.of(Map.of("PATH", "bin:" + root.resolve("bin")), root);
        assertEquals(root.resolve("bin/tool").toString(),
                ExecPolicy.of(RuleSet.empty(), absolute).resolve("tool", List.of()).orElseThrow().path());
    }

    @Test
    void onlyAnExecutableRegularFileIsFound() throws IOException {
        Path notExecutable = root.resolve("a/tool");
        Files.createDirectories(notExecutable.getParent());
        Files.writeString(notExecutable, "data");
        Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createDirectories(root.resolve("b/tool"));
        Files.createDirectories(root.resolve("c"));
        Files.createSymbolicLink(root.resolve("c/tool"), root.resolve("missing"));
        Path wanted = executable(root.resolve("d/tool"));
        String path = String.join(":", root.resolve("a").toString(), root.resolve("b").toString(),
                root.resolve("c").toString(), root.resolve("d").toString());
        Environment env = SystemEnvironment.of(Map.of("PATH", path), root);

        assertEquals(wanted.toString(), ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of()).orElseThrow().path());
    }

    @Test
    void aSymlinkToAnExecutableCountsAsTheExecutable() throws IOException {
        Path real = executable(root.resolve("real/tool"));
        Files.createDirectories(root.resolve("links"));
        Path link = Files.createSymbolicLink(root.resolve("links/tool"), real);
        Environment env = SystemEnvironment.of(Map.of("PATH", root.resolve("links").toString()), root);

        assertEquals(link.toString(), ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of()).orElseThrow().path());
    }

    @Test
    void theProcessEnvironmentWithoutPathUsesTheDefaultSearchPath() {
        Environment env = SystemEnvironment.of(Map.of(), root);
        assertEquals(null, env.searchPath());
        assertEquals("/usr/bin:/bin:/usr/sbin:/sbin", env.effectiveSearchPath());
        assertEquals(root.toString(), env.workingDirectory());
        ResolvedCommand sh = ExecPolicy.of(RuleSet.empty(), env).resolve("sh", List.of()).orElseThrow();
        assertEquals(true, sh.trusted());
        assertEquals("sh", sh.program());
    }
}
