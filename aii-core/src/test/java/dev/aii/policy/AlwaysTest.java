package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class AlwaysTest {

    static Stream<Arguments> shapes() {
        return Stream.of(
                argumentSet("no arguments: the program alone", "git", List.of(), List.of("git")),
                argumentSet("first argument a subcommand: program and subcommand", "git",
                        List.of("status", "--short"), List.of("git", "status")),
                argumentSet("brew list", "brew", List.of("list"), List.of("brew", "list")),
                argumentSet("first argument a flag: the whole argv", "git", List.of("-C", "/x", "status"),
                        List.of("git", "-C", "/x", "status")),
                argumentSet("a lone dash is a flag", "cat", List.of("-", "x"), List.of("cat", "-", "x")),
                argumentSet("a long option is a flag", "ls", List.of("--all"), List.of("ls", "--all")),
                argumentSet("an empty first argument is not a flag", "touch", List.of("", "x"), List.of("touch", "")),
                argumentSet("a dash later does not count", "git", List.of("log", "-n", "3"), List.of("git", "log")));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void derivePrefixFollowsTheThreeCommandShapes(String program, List<String> arguments, List<String> prefix) {
        assertEquals(new Rule(prefix), ExecPolicy.derivePrefix(program, arguments));
    }

    @Test
    void askOffersAlwaysWithTheDerivedPrefixForATrustedProgram() {
        Decision decision = FakeFiles.policy(Builtins.defaults()).evaluate("git", List.of("status", "--short"));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Decision.Always.OFFERED, ask.always());
        assertEquals(Optional.of(Rule.of("git", "status")), ask.alwaysPrefix());
        assertEquals("git status", Render.render(ask.prefix().tokens()));
    }

    @Test
    void thePrefixUsesTheProgramNameNotThePathGiven() {
        Decision decision = FakeFiles.policy(RuleSet.empty()).evaluate("/usr/bin/git", List.of("-C", "/x", "log"));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Optional.of(Rule.of("git", "-C", "/x", "log")), ask.alwaysPrefix());
    }

    @Test
    void builtInNeverAlwaysSetIsTheSpecifiedProgramsTheWrappersAndTheAmendmentsList() {
        List<String> expected = List.of(
                "sh", "bash", "zsh", "dash", "ksh", "csh", "tcsh", "fish",
                "python", "python3", "perl", "ruby", "node", "osascript", "swift",
                "env", "xargs", "sudo", "su", "doas", "nice", "nohup", "time",
                "timeout", "stdbuf", "chroot", "setsid", "flock", "script", "unshare", "nsenter", "runuser",
                "setpriv", "ionice", "chrt", "taskset", "prlimit", "watch", "systemd-run", "pkexec", "sg",
                "busybox", "strace", "gdb", "lldb", "caffeinate", "arch", "xcrun", "command",
                "find", "sed", "awk", "gawk", "tee", "dd", "make", "npm", "npx", "pip",
                "curl", "wget", "nc", "ssh", "scp", "rsync",
                "open", "launchctl",
                "rm", "rmdir", "mv", "cp", "chmod", "chown", "kill", "killall", "defaults", "diskutil",
                "vi", "vim", "nvim", "view", "ex", "ed", "emacs", "nano", "sqlite3", "tmux", "screen", "nodejs",
                "deno", "bun", "tclsh", "wish", "lua", "php", "R", "Rscript", "julia", "mawk", "nawk", "busybox",
                "rbash", "jshell", "jrunscript", "gdb", "strace", "ltrace", "expect", "script", "watch",
                "parallel",
                "editor", "sensible-editor", "select-editor", "sensible-pager", "sensible-browser",
                "x-www-browser", "www-browser", "x-terminal-emulator", "xdg-open", "run-mailcap", "see",
                "ash", "mksh", "yash", "posh", "oksh", "elvish", "xonsh", "pwsh",
                "java", "pypy", "ipython", "irb", "erb", "guile", "racket", "sbcl", "clisp", "ocaml", "ghci",
                "runghc", "runhaskell", "scala", "groovy", "kotlin", "elixir", "iex", "erl", "escript",
                "dotnet", "octave", "gnuplot", "pydoc", "perldoc",
                "cmake", "ninja", "mvn", "mvnw", "gradle", "gradlew", "ant", "cargo", "go", "meson", "bazel",
                "rake", "bundle", "yarn", "pnpm", "pipx", "poetry", "tox", "scons",
                "setarch", "linux32", "linux64", "i386", "x86_64", "logsave", "perf", "valgrind", "run-parts",
                "sudoedit", "start-stop-daemon", "daemonize", "systemctl", "crontab", "at", "batch",
                "socat", "ncat", "netcat", "telnet", "ftp", "sftp");
        assertEquals(Set.copyOf(expected).size(), Builtins.NEVER_ALWAYS.size());
        assertEquals(Set.copyOf(expected), Builtins.NEVER_ALWAYS);
    }

    static Stream<String> neverAlways() {
        return Builtins.NEVER_ALWAYS.stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("neverAlways")
    void neverAlwaysProgramsAreNeverOfferedAlways(String program) {
        Environment everywhere = new Environment("/usr/bin", "/", FileProbe.executablesOnly(path -> path.startsWith("/usr/bin/")));
        Decision decision = ExecPolicy.of(RuleSet.empty(), everywhere).evaluate(program, List.of("x"));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask.always());
        assertEquals(Optional.empty(), ask.alwaysPrefix());
    }

    /** A wrapper's derived prefix would allow any command after it, including the never-always ones. */
    @Test
    void aWrapperCannotCarryACommandPastTheNeverAlwaysSet() {
        Environment everywhere = new Environment("/usr/bin", "/", FileProbe.executablesOnly(path -> path.startsWith("/usr/bin/")));
        for (List<String> argv : List.of(List.of("timeout", "10", "rm", "-rf", "/"), List.of("setsid", "rm", "x"),
                List.of("flock", "/tmp/lock", "sh"), List.of("watch", "ls"), List.of("command", "rm", "x"))) {
            Decision decision = ExecPolicy.of(RuleSet.empty(), everywhere)
                    .evaluate(argv.getFirst(), argv.subList(1, argv.size()));
            Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision, argv::toString);
            assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask.always(), argv::toString);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"python3.12", "python2", "perl5.34", "ruby3.2", "bash5", "node18", "pip3", "ksh93"})
    void aNeverAlwaysProgramWithAVersionNumberIsNeverOfferedAlwaysEither(String program) {
        Environment everywhere = new Environment("/usr/bin", "/", FileProbe.executablesOnly(path -> path.startsWith("/usr/bin/")));
        Decision decision = ExecPolicy.of(RuleSet.empty(), everywhere).evaluate(program, List.of("x"));
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, assertInstanceOf(Decision.Ask.class, decision).always());
        assertTrue(Builtins.isNeverAlways(program));
    }

    @ParameterizedTest
    @ValueSource(strings = {"md5", "sha256sum", "base64", "2to3", "x11", "git", "7z", "shasum"})
    void otherNamesWithDigitsStillOfferAlways(String program) {
        assertFalse(Builtins.isNeverAlways(program));
    }

    @Test
    void aHandWrittenRuleStillAllowsANeverAlwaysProgram() {
        Decision decision = FakeFiles.policy(FakeFiles.rules("rm -i")).evaluate("rm", List.of("-i", "x"));
        assertInstanceOf(Decision.Allow.class, decision);
    }

    static Stream<Arguments> notPlain() {
        return Stream.of(
                argumentSet("bell in the subcommand", "/usr/local/bin/brew", List.of("st\u0007tus")),
                argumentSet("line feed in the subcommand", "/usr/local/bin/brew", List.of("a\nb")),
                argumentSet("bidi override in a flag argument", "/usr/local/bin/brew", List.of("-C", "a\u202Eb", "log")),
                argumentSet("zero-width space in the subcommand", "/usr/local/bin/brew", List.of("sta\u200Btus")),
                argumentSet("C1 control in a flag", "/usr/local/bin/brew", List.of("-l\u0085")),
                argumentSet("tag character in the subcommand", "/usr/local/bin/brew", List.of("log\uDB40\uDC41")));
    }

    @ParameterizedTest
    @MethodSource("notPlain")
    void alwaysIsNotOfferedWhenAPrefixTokenNeedsEscaping(String program, List<String> arguments) {
        Decision decision = FakeFiles.policy(RuleSet.empty()).evaluate(program, arguments);
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Decision.Always.PREFIX_NOT_PLAIN, ask.always());
        assertEquals(Optional.empty(), ask.alwaysPrefix());
    }

    static Stream<Arguments> plain() {
        return Stream.of(
                argumentSet("escapes only after the prefix", "git", List.of("status", "a\nb"), "git status"),
                argumentSet("spaces need quoting, not escaping", "ls", List.of("My Documents"), "ls 'My Documents'"),
                argumentSet("non-ASCII letters are plain", "cat", List.of("日本.txt"), "cat '日本.txt'"),
                argumentSet("a quote is plain", "/usr/local/bin/brew", List.of("it's"), "brew 'it'\\''s'"));
    }

    @ParameterizedTest
    @MethodSource("plain")
    void alwaysIsOfferedWhenThePrefixNeedsOnlyQuoting(String program, List<String> arguments, String shown) {
        Decision decision = FakeFiles.policy(RuleSet.empty()).evaluate(program, arguments);
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Decision.Always.OFFERED, ask.always());
        assertEquals(shown, Render.render(ask.alwaysPrefix().orElseThrow().tokens()));
    }
}
