package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MatchingTest {

    static Stream<Arguments> allowed() {
        return Stream.of(
                argumentSet("a default with no arguments", "ls", List.of(), "ls"),
                argumentSet("a default with any arguments", "ls", List.of("-la", "/tmp"), "ls"),
                argumentSet("a default with odd arguments", "cat", List.of("--", "-", "a b", "\n"), "cat"),
                argumentSet("a default by absolute path", "/bin/ls", List.of("-l"), "ls"),
                argumentSet("a default in /usr/sbin", "/usr/sbin/df", List.of("-h"), "df"),
                argumentSet("a default reached through ..", "/usr/local/bin/../../bin/ls", List.of(), "ls"),
                argumentSet("a default by a relative path with ..", "../../usr/bin/cat", List.of("x"), "cat"),
                argumentSet("never above /", "/../../../bin/ls", List.of(), "ls"),
                argumentSet("empty and . segments dropped", "//usr/./bin//ls", List.of(), "ls"));
    }

    @ParameterizedTest
    @MethodSource("allowed")
    void builtInDefaultsAllowTheirProgramInATrustedDirectory(String executable, List<String> arguments,
                                                             String rule) {
        Decision decision = FakeFiles.policy(Builtins.defaults()).evaluate(executable, arguments);
        Decision.Allow allow = assertInstanceOf(Decision.Allow.class, decision);
        assertEquals(Rule.of(rule), allow.rule());
    }

    static Stream<Arguments> prefixRules() {
        return Stream.of(
                argumentSet("exactly the prefix", "git status", "git", List.of("status"), true),
                argumentSet("a longer argv", "git status", "git", List.of("status", "--short"), true),
                argumentSet("a much longer argv", "git log --oneline", "git",
                        List.of("log", "--oneline", "-n", "5"), true),
                argumentSet("a shorter argv", "git status --short", "git", List.of("status"), false),
                argumentSet("no arguments", "git status", "git", List.of(), false),
                argumentSet("wrong subcommand", "git status", "git", List.of("log"), false),
                argumentSet("subcommand only as a later argument", "git status", "git", List.of("-C", "status"), false),
                argumentSet("subcommand is a prefix of the word", "git stat", "git", List.of("status"), false),
                argumentSet("case matters", "git status", "git", List.of("Status"), false),
                argumentSet("case matters at the end too", "git status", "git", List.of("statuS"), false),
                argumentSet("the rule's word is a prefix of the command's", "git status", "git",
                        List.of("status-x"), false),
                argumentSet("wrong program", "git status", "cat", List.of("status"), false),
                argumentSet("program by absolute path", "git status", "/usr/bin/git", List.of("status"), true),
                argumentSet("quoted argument", "ls 'My Documents'", "ls", List.of("My Documents", "-l"), true),
                argumentSet("empty argument", "touch ''", "touch", List.of("", "x"), true),
                argumentSet("empty argument is not no argument", "touch ''", "touch", List.of("x"), false),
                argumentSet("a rule for a program outside system directories", "script.sh",
                        "/home/u/script.sh", List.of(), false));
    }

    @ParameterizedTest
    @MethodSource("prefixRules")
    void aRuleMatchesWhenItsArgumentsArePrefixOfTheCommandsArguments(String ruleLine, String executable,
                                                                     List<String> arguments, boolean matches) {
        Decision decision = FakeFiles.policy(FakeFiles.rules(ruleLine)).evaluate(executable, arguments);
        if (matches) {
            assertEquals(FakeFiles.parse(ruleLine), assertInstanceOf(Decision.Allow.class, decision).rule());
        } else {
            assertInstanceOf(Decision.Ask.class, decision);
        }
    }

    static Stream<Arguments> untrusted() {
        return Stream.of(
                argumentSet("outside system directories", "/opt/tools/ls", "/opt/tools/ls"),
                argumentSet("a trusted directory's subdirectory", "/usr/bin/sub/ls", "/usr/bin/sub/ls"),
                argumentSet(".. leading out of a trusted directory", "/usr/bin/../../opt/tools/ls", "/opt/tools/ls"),
                argumentSet("relative path from the working directory", "bin/git", "/home/u/bin/git"),
                argumentSet("./ path", "./script.sh", "/home/u/script.sh"));
    }

    @ParameterizedTest
    @MethodSource("untrusted")
    void aProgramOutsideTheTrustedDirectoriesNeverMatches(String executable, String path) {
        RuleSet everything = FakeFiles.rules("ls", "git", "script.sh", "sub");
        Decision decision = FakeFiles.policy(everything).evaluate(executable, List.of());
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(path, ask.command().path());
        assertEquals(false, ask.command().trusted());
        assertEquals(Decision.Always.NOT_IN_SYSTEM_DIRECTORY, ask.always());
        assertEquals(path, ask.command().display());
    }

    @Test
    void aProgramFoundThroughARelativePathEntryIsSkipped() {
        // /home/u/bin/git exists, but "bin" and "." are relative and must not be searched.
        ExecPolicy policy = ExecPolicy.of(FakeFiles.rules("git"), FakeFiles.environment("bin:.::/usr/bin", "/home/u"));
        Decision.Allow allow = assertInstanceOf(Decision.Allow.class, policy.evaluate("git", List.of("log")));
        assertEquals("/usr/bin/git", allow.command().path());
    }

    @Test
    void aProgramOnlyOnRelativePathEntriesIsNotFound() {
        ExecPolicy policy = ExecPolicy.of(FakeFiles.rules("git"), FakeFiles.environment("bin:./bin:", "/home/u"));
        Decision.Refuse refuse = assertInstanceOf(Decision.Refuse.class, policy.evaluate("git", List.of()));
        assertEquals("Error: executable not found: git", refuse.message());
    }

    @Test
    void anEmptyRuleSetAllowsNothing() {
        Decision decision = FakeFiles.policy(RuleSet.empty()).evaluate("ls", List.of());
        assertInstanceOf(Decision.Ask.class, decision);
    }

    @Test
    void theFirstMatchingRuleIsReported() {
        ExecPolicy policy = FakeFiles.policy(FakeFiles.rules("git status --short", "git status", "git"));
        Decision.Allow allow = assertInstanceOf(Decision.Allow.class,
                policy.evaluate("git", List.of("status", "-v")));
        assertEquals(Rule.of("git", "status"), allow.rule());
    }

    @Test
    void aTrustedProgramIsShownByNameEvenWhenGivenByPath() {
        Decision decision = FakeFiles.policy(RuleSet.empty()).evaluate("/usr/bin/git", List.of("status", "--short"));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals("git status --short", ask.command().display());
        assertEquals("/usr/bin/git", ask.command().path());
        assertEquals("/usr/bin/git", ask.command().executable());
    }

    @Test
    void anAddedRuleAppliesToTheNewPolicyOnly() {
        ExecPolicy before = FakeFiles.policy(Builtins.defaults());
        ExecPolicy after = before.withRule(Rule.of("git", "status"));
        assertInstanceOf(Decision.Ask.class, before.evaluate("git", List.of("status")));
        assertInstanceOf(Decision.Allow.class, after.evaluate("git", List.of("status")));
        assertEquals(Builtins.DEFAULT_RULES.size() + 1, after.withRule(Rule.of("git", "status")).rules().size());
    }
}
