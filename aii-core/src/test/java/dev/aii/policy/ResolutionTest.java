package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResolutionTest {

    @Test
    void anUnsetPathSearchesTheDefaultDirectoriesInOrder() {
        List<String> probed = new ArrayList<>();
        Environment env = new Environment(null, "/", FileProbe.executablesOnly(path -> {
            probed.add(path);
            return false;
        }));
        assertEquals(Optional.empty(), ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of()));
        assertEquals(List.of("/usr/bin/tool", "/bin/tool", "/usr/sbin/tool", "/sbin/tool"), probed);
        assertEquals("/usr/bin:/bin:/usr/sbin:/sbin", env.effectiveSearchPath());
    }

    @Test
    void anEmptyPathSearchesNothing() {
        List<String> probed = new ArrayList<>();
        Environment env = new Environment("", "/usr/bin", FileProbe.executablesOnly(path -> probed.add(path)));
        assertEquals(Optional.empty(), ExecPolicy.of(RuleSet.empty(), env).resolve("ls", List.of()));
        assertEquals(List.of(), probed);
    }

    @Test
    void relativeSearchPathEntriesAreNeverProbed() {
        List<String> probed = new ArrayList<>();
        Environment env = new Environment("bin:.:..::./x:~/bin:/opt/a", "/home/u", FileProbe.executablesOnly(path -> {
            probed.add(path);
            return false;
        }));
        ExecPolicy.of(RuleSet.empty(), env).resolve("tool", List.of());
        assertEquals(List.of("/opt/a/tool"), probed);
    }

    @Test
    void theFirstExecutableOnTheSearchPathWins() {
        Environment env = new Environment("/opt/tools:/bin:/usr/bin", "/", FileProbe.executablesOnly(FakeFiles.SYSTEM::contains));
        ResolvedCommand ls = ExecPolicy.of(RuleSet.empty(), env).resolve("ls", List.of("-l")).orElseThrow();
        assertEquals(new ResolvedCommand("ls", "/opt/tools/ls", "ls", false, List.of("-l")), ls);
    }

    static Stream<Arguments> paths() {
        return Stream.of(
                argumentSet("absolute", "/usr/bin/git", "/", "/usr/bin/git", true),
                argumentSet("a name is searched, whatever the working directory", "git", "/home/u", "/usr/bin/git", true),
                argumentSet("./ is relative to the working directory", "./git", "/usr/bin", "/usr/bin/git", true),
                argumentSet(".. pops one segment", "/usr/bin/sub/../git", "/", "/usr/bin/git", true),
                argumentSet(".. from the working directory", "../bin/ls", "/usr/sbin", "/usr/bin/ls", true),
                argumentSet("never above /", "/../../bin/ls", "/", "/bin/ls", true),
                argumentSet("doubled slashes", "/usr//bin///git", "/", "/usr/bin/git", true),
                argumentSet("a trusted directory's subdirectory", "/usr/bin/sub/ls", "/", "/usr/bin/sub/ls", false),
                argumentSet("leaving a trusted directory with ..", "/usr/bin/../../opt/tools/ls", "/",
                        "/opt/tools/ls", false),
                argumentSet("/usr/local/bin", "/usr/local/bin/brew", "/", "/usr/local/bin/brew", true),
                argumentSet("/opt/homebrew/bin", "/opt/homebrew/bin/brew", "/", "/opt/homebrew/bin/brew", true));
    }

    @ParameterizedTest
    @MethodSource("paths")
    void aPathIsNormalisedLexicallyAndTrustedByItsParentDirectory(String executable, String workingDirectory,
                                                                   String path, boolean trusted) {
        Environment env = new Environment("/usr/bin", workingDirectory, FileProbe.executablesOnly(FakeFiles.SYSTEM::contains));
        ResolvedCommand command = ExecPolicy.of(RuleSet.empty(), env).resolve(executable, List.of()).orElseThrow();
        assertEquals(path, command.path());
        assertEquals(trusted, command.trusted());
        assertEquals(path.substring(path.lastIndexOf('/') + 1), command.program());
        assertEquals(executable, command.executable());
    }

    @Test
    void onlyTheNormalisedPathIsAskedAbout() {
        List<String> probed = new ArrayList<>();
        Environment env = new Environment("/usr/bin/../bin/", "/tmp/../home/u", FileProbe.executablesOnly(path -> probed.add(path)));
        ExecPolicy policy = ExecPolicy.of(RuleSet.empty(), env);
        policy.resolve("tool", List.of());
        policy.resolve("./x/../y", List.of());
        assertEquals(List.of("/usr/bin/tool", "/home/u/y"), probed);
    }

    @Test
    void everyTrustedDirectoryIsTrustedAndNothingNearThem() {
        Set<String> files = Set.of("/bin/p", "/usr/bin/p", "/sbin/p", "/usr/sbin/p", "/usr/local/bin/p",
                "/opt/homebrew/bin/p", "/usr/p", "/usr/local/p", "/opt/homebrew/p", "/bin2/p", "/usr/bin2/p",
                "/x/usr/bin/p", "/usr/local/bin/x/p");
        Environment env = new Environment(null, "/", FileProbe.executablesOnly(files::contains));
        ExecPolicy policy = ExecPolicy.of(RuleSet.empty(), env);
        List<String> trusted = files.stream().sorted()
                .filter(f -> policy.resolve(f, List.of()).orElseThrow().trusted())
                .toList();
        assertEquals(List.of("/bin/p", "/opt/homebrew/bin/p", "/sbin/p", "/usr/bin/p", "/usr/local/bin/p",
                "/usr/sbin/p"), trusted);
    }

    @Test
    void theUntrustedDisplayIsTheFullPathThenTheArguments() {
        ResolvedCommand command = new ResolvedCommand("x", "/opt/tools/x", "x", false, List.of("a b", "\n"));
        assertEquals(List.of("/opt/tools/x", "a b", "\n"), command.displayArgv());
        assertEquals("/opt/tools/x 'a b' '\\n'", command.display());
    }

    @Test
    void environmentAndResolvedCommandRejectInvalidValues() {
        IllegalArgumentException cwd = assertThrows(IllegalArgumentException.class,
                () -> new Environment(null, "relative", FileProbe.executablesOnly(p -> false)));
        assertEquals("working directory must be absolute: relative", cwd.getMessage());
        IllegalArgumentException path = assertThrows(IllegalArgumentException.class,
                () -> new ResolvedCommand("x", "x", "x", false, List.of()));
        assertEquals("path must be absolute: x", path.getMessage());
    }
}
