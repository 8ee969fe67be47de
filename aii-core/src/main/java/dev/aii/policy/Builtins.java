package dev.aii.policy;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The fixed parts of the policy: the built-in default rules, the programs for
 * which "always" is never offered, and the trusted directories.
 */
public final class Builtins {

    /** The version of aii these built-ins belong to (written into seeded allow files). */
    public static final String VERSION = "0.9.0";

    /**
     * The built-in defaults in their documented order. Each is a program
     * alone, so it allows that program with any arguments.
     */
    public static final List<Rule> DEFAULT_RULES = Stream.of(
                    "ls", "pwd", "cat", "head", "tail", "wc", "date", "whoami", "uname",
                    "df", "du", "stat", "file", "which", "ps", "uptime", "sw_vers")
            .map(Rule::of)
            .toList();

    /**
     * Programs that can run, rewrite or destroy arbitrary things: for these the
     * prompt offers yes or no only, every time.
     */
    public static final Set<String> NEVER_ALWAYS = Stream.of(
                    // shells
                    "sh", "bash", "zsh", "dash", "ksh", "csh", "tcsh", "fish",
                    // interpreters
                    "python", "python3", "perl", "ruby", "node", "osascript", "swift",
                    // wrappers
                    "env", "xargs", "sudo", "su", "doas", "nice", "nohup", "time",
                    // more wrappers, beyond the seed's list: each runs a command given among its
                    // arguments, so "always allow timeout 10" would allow every command
                    "timeout", "stdbuf", "chroot", "setsid", "flock", "script", "unshare", "nsenter", "runuser",
                    "setpriv", "ionice", "chrt", "taskset", "prlimit", "watch", "systemd-run", "pkexec", "sg",
                    "busybox", "strace", "gdb", "lldb", "caffeinate", "arch", "xcrun", "command",
                    // can run or rewrite arbitrary things
                    "find", "sed", "awk", "gawk", "tee", "dd", "make", "npm", "npx", "pip",
                    // network
                    "curl", "wget", "nc", "ssh", "scp", "rsync",
                    // launchers
                    "open", "launchctl",
                    // destructive or system-changing
                    "rm", "rmdir", "mv", "cp", "chmod", "chown", "kill", "killall", "defaults", "diskutil",
                    // exec.md 9.2: editors, databases, multiplexers, interpreters and tracers that run or
                    // write whatever they are told
                    "vi", "vim", "nvim", "view", "ex", "ed", "emacs", "nano", "sqlite3", "tmux", "screen",
                    "nodejs", "deno", "bun", "tclsh", "wish", "lua", "php", "R", "Rscript", "julia", "mawk", "nawk",
                    "rbash", "jshell", "jrunscript", "ltrace", "expect", "parallel")
            .collect(Collectors.toUnmodifiableSet());

    /**
     * Directories whose programs rules can match: a program's parent directory
     * must be exactly one of these (subdirectories do not count).
     */
    public static final List<String> TRUSTED_DIRECTORIES = List.of(
            "/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/opt/homebrew/bin");

    /** The search path used when the environment has no {@code PATH}. */
    public static final String DEFAULT_PATH = "/usr/bin:/bin:/usr/sbin:/sbin";

    private Builtins() {
    }

    /** The built-in defaults as a rule set. */
    public static RuleSet defaults() {
        return RuleSet.of(DEFAULT_RULES);
    }

    /**
     * Whether "always" is never offered for {@code program}: it is in
     * {@link #NEVER_ALWAYS}, or is one of those with a version number appended
     * ({@code python3.12}, {@code perl5.34}, {@code bash5}).
     */
    public static boolean isNeverAlways(String program) {
        if (NEVER_ALWAYS.contains(program)) {
            return true;
        }
        int end = program.length();
        while (end > 0 && ((program.charAt(end - 1) >= '0' && program.charAt(end - 1) <= '9')
                || program.charAt(end - 1) == '.')) {
            end--;
        }
        return end < program.length() && NEVER_ALWAYS.contains(program.substring(0, end));
    }
}
