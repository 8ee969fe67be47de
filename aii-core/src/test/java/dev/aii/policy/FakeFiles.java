package dev.aii.policy;

import java.util.Arrays;
import java.util.Set;

/** A file system made of a fixed set of executable regular files, for decisions that need no disk. */
public final class FakeFiles {

    /** The executables most tests use: a few system programs, and some outside system directories. */
    public static final Set<String> SYSTEM = Set.of(
            "/bin/ls", "/usr/bin/ls", "/usr/bin/cat", "/usr/bin/git", "/usr/bin/rm", "/usr/bin/bash",
            "/usr/bin/touch", "/usr/sbin/df", "/usr/local/bin/brew", "/opt/homebrew/bin/brew",
            "/opt/tools/ls", "/usr/bin/sub/ls", "/home/u/bin/git", "/home/u/script.sh");

    private FakeFiles() {
    }

    public static Environment environment(String searchPath, String workingDirectory) {
        return new Environment(searchPath, workingDirectory, FileProbe.executablesOnly(SYSTEM::contains));
    }

    public static Environment environment() {
        return environment("/usr/bin:/bin", "/home/u");
    }

    public static ExecPolicy policy(RuleSet rules) {
        return ExecPolicy.of(rules, environment());
    }

    public static RuleSet rules(String... lines) {
        return RuleSet.of(Arrays.stream(lines).map(FakeFiles::parse).toList());
    }

    public static Rule parse(String line) {
        try {
            return Rule.parse(line);
        } catch (RuleSyntaxException e) {
            throw new IllegalArgumentException(line, e);
        }
    }
}
