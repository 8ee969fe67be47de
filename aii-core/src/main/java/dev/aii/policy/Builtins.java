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
                    "rbash", "jshell", "jrunscript", "ltrace", "expect", "parallel",
                    // beyond exec.md 9.2, each because even the exact command can run code that files name,
                    // or runs a program given among its arguments: Debian's alternatives and their helpers
                    // (editor -> vim.basic), more shells and interpreters, build tools (a build file says
                    // what runs), and more wrappers
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
                    "socat", "ncat", "netcat", "telnet", "ftp", "sftp")
            .collect(Collectors.toUnmodifiableSet());

    /**
     * Programs that do what the name they were started by says ({@code ls}
     * linked to busybox runs busybox's ls): a link to one of these is judged
     * by the name it was started by, not by the program it leads to.
     */
    public static final Set<String> MULTI_CALL = Set.of("busybox", "toybox", "coreutils");

    private static final Set<String> NEVER_ALWAYS_LOWER = NEVER_ALWAYS.stream()
            .map(p -> p.toLowerCase(java.util.Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

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
     * Whether "always" is never offered for {@code program}: it, or a name
     * of its family, is in {@link #NEVER_ALWAYS}, without regard to ASCII
     * case. The family of a name is what it is made from: {@code vim.basic},
     * {@code vimdiff}, {@code rvim}, {@code gvim} and {@code vim.tiny} are
     * vim's; {@code python3.12}, {@code perl5.36.0}, {@code node20} and
     * {@code bash5} are versions; {@code sensible-editor} is an editor,
     * {@code gsed} a sed, {@code emacs-nox} an emacs.
     */
    public static boolean isNeverAlways(String program) {
        if (NEVER_ALWAYS.contains(program)) {
            return true;
        }
        for (String stem : ProgramFamily.stems(program)) {
            if (NEVER_ALWAYS_LOWER.contains(stem)) {
                return true;
            }
        }
        return false;
    }
}
