package dev.aii.exec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The environment a git command gets when it runs because a rule matched:
 * what a repository's configuration can make git execute is turned off, as
 * far as git lets the environment do it.
 *
 * <p>Fixed settings go through {@code GIT_CONFIG_COUNT}/{@code GIT_CONFIG_KEY_n}/
 * {@code GIT_CONFIG_VALUE_n} (appended to any the user set), which outrank
 * every configuration file, and through git's own variables. Drivers that a
 * repository names itself ({@code diff.<driver>.textconv},
 * {@code diff.<driver>.command}, {@code filter.<driver>.process}, ...) have
 * names aii cannot know in advance, so it first asks git for them
 * ({@code git config --get-regexp}, which runs nothing) and overrides each one
 * it is told of. docs/security.md lists what stays out of reach.
 */
final class GitLockdown {

    /** Variables git reads itself. */
    static final Map<String, String> VARIABLES = ordered(
            "GIT_PAGER", "cat",
            "GIT_EDITOR", "false",
            "GIT_SEQUENCE_EDITOR", "false",
            // An empty GIT_ASKPASS outranks core.askPass and asks nobody; with no terminal prompt either.
            "GIT_ASKPASS", "",
            "GIT_TERMINAL_PROMPT", "0",
            // No index refresh written back, so no post-index-change hook and no lock contention.
            "GIT_OPTIONAL_LOCKS", "0",
            // Only the built-in transports: no ext:: (runs a command) and no remote helper a URL names.
            "GIT_ALLOW_PROTOCOL", "file:git:http:https:ssh",
            // A partial clone does not fetch missing objects behind the user's back (git 2.44 and later).
            "GIT_NO_LAZY_FETCH", "1");

    /** Configuration set over every file, whatever the repository says. */
    static final Map<String, String> CONFIG = ordered(
            "core.fsmonitor", "false",
            "core.hooksPath", "/dev/null",
            "core.pager", "cat",
            "core.sshCommand", "ssh",
            "core.askPass", "",
            // An empty helper clears the list built so far, the repository's helpers included.
            "credential.helper", "",
            "gpg.program", "gpg",
            "gpg.openpgp.program", "gpg",
            "gpg.x509.program", "gpgsm",
            "gpg.ssh.program", "ssh-keygen",
            "gpg.ssh.defaultKeyCommand", "",
            // A submodule's own configuration names its own drivers, which aii cannot list: git stays out of
            // submodules (the tables ask for --ignore-submodules other than all, --submodule=diff and
            // --recurse-submodules, which would take it back in).
            "diff.ignoreSubmodules", "all",
            "submodule.recurse", "false",
            "status.submoduleSummary", "false",
            "diff.submodule", "short",
            // A log that shows signatures runs gpg with the user's keys (the tables ask for --show-signature).
            "log.showSignature", "false");

    /** The configuration keys whose names hold a driver the repository chooses. */
    static final String DRIVER_KEYS =
            "^(diff\\..+\\.(textconv|command)|diff\\.external|filter\\..+\\.(clean|smudge|process|required)"
                    + "|merge\\..+\\.driver)$";

    /** Global options passed on to the question, so that it asks about the same repository. */
    private static final Set<String> WITH_VALUE = Set.of("-C", "-c", "--git-dir", "--work-tree", "--namespace",
            "--config-env");
    private static final Set<String> FLAGS = Set.of("--bare", "--literal-pathspecs", "--glob-pathspecs",
            "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects");

    private GitLockdown() {
    }

    /** The subcommands that show diffs, where a diff program or text conversion the repository names runs. */
    static final Set<String> DIFFS = Set.of("log", "show", "whatchanged", "diff", "reflog", "blame");

    /** The driver keys git has no setting to turn off: set to anything, git writes temporary files and runs it. */
    private static final java.util.regex.Pattern DIFF_PROGRAMS =
            java.util.regex.Pattern.compile("diff\\..+\\.(textconv|command)|diff\\.external");

    /**
     * How {@code git} at {@code path} runs with {@code arguments}: with the
     * variables to set; or, for a subcommand that shows diffs in a repository
     * that names a diff program or a text conversion (which git runs,
     * through a temporary file, whatever it is set to), asking; or not at
     * all, when the repository's drivers could not be listed in full (the
     * question timed out, was interrupted, or answered more than aii reads).
     *
     * @param inherited the environment the command would otherwise get (for a {@code GIT_CONFIG_COUNT} to extend)
     */
    static UnderRule.Setup setup(CommandRunner runner, String path, List<String> arguments,
                                 Map<String, String> inherited, Limits limits, Cancellation cancellation) {
        Optional<List<String>> keys = driverKeys(runner, path, arguments, inherited, limits, cancellation);
        if (keys.isEmpty()) {
            return new UnderRule.Setup.Unchecked();
        }
        if (DIFFS.contains(subcommand(arguments))) {
            for (String key : keys.get()) {
                if (DIFF_PROGRAMS.matcher(key).matches()) {
                    return new UnderRule.Setup.Ask("the configuration names a program for git's diffs ("
                            + dev.aii.policy.Render.render(List.of(key)) + "), which aii cannot turn off");
                }
            }
        }
        Map<String, String> config = new LinkedHashMap<>(CONFIG);
        for (String key : keys.get()) {
            config.put(key, neutral(key));
        }
        return new UnderRule.Setup.Ready(with(config, inherited));
    }

    /** The subcommand: the first argument after git's global options and their values; empty when there is none. */
    static String subcommand(List<String> arguments) {
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (!a.startsWith("-")) {
                return a;
            }
            if (WITH_VALUE.contains(a)) {
                i++;
            }
        }
        return "";
    }

    /** {@link #VARIABLES} and {@code config} as {@code GIT_CONFIG_*} variables after those in {@code inherited}. */
    static Map<String, String> with(Map<String, String> config, Map<String, String> inherited) {
        Map<String, String> env = new LinkedHashMap<>(VARIABLES);
        int first = 0;
        try {
            first = Math.max(0, Integer.parseInt(inherited.getOrDefault("GIT_CONFIG_COUNT", "0").strip()));
        } catch (NumberFormatException e) {
            // git rejects a count that is not a number; ours replaces it, and the user's entries are dropped.
            first = 0;
        }
        int n = first;
        for (Map.Entry<String, String> e : config.entrySet()) {
            env.put("GIT_CONFIG_KEY_" + n, e.getKey());
            env.put("GIT_CONFIG_VALUE_" + n, e.getValue());
            n++;
        }
        env.put("GIT_CONFIG_COUNT", Integer.toString(n));
        return env;
    }

    /**
     * What a driver key is set to: empty, which git takes as no filter (and
     * a filter not required), so nothing the repository named runs. The diff
     * programs among them only run in the subcommands that show diffs, which
     * ask instead ({@link #DIFFS}).
     */
    static String neutral(String key) {
        if (key.endsWith(".required")) {
            return "false";
        }
        return "";
    }

    /**
     * The driver keys the configuration sets, as git lists them. git exits 1
     * when there are none, and 128 when it cannot read the configuration or
     * find the repository (the command then fails the same way): no keys. Any
     * other ending, or more output than is read, is empty: not known in full.
     */
    private static Optional<List<String>> driverKeys(CommandRunner runner, String path, List<String> arguments,
                                                     Map<String, String> inherited, Limits limits,
                                                     Cancellation cancellation) {
        List<String> question = new ArrayList<>(globalOptions(arguments));
        question.addAll(List.of("config", "--null", "--name-only", "--get-regexp", DRIVER_KEYS));
        Limits asking = limits.withTimeout(min(limits.timeout(), Duration.ofSeconds(10))).withOutputCap(1 << 16);
        RunResult result = runner.run(path, question, with(CONFIG, inherited), asking, cancellation);
        if (!(result instanceof RunResult.Exited exited) || exited.output().truncated()) {
            return Optional.empty();
        }
        List<String> keys = new ArrayList<>();
        if (exited.status() == 0) {
            String out = new String(exited.output().head(), StandardCharsets.UTF_8);
            for (String key : out.split("\0")) {
                if (!key.isEmpty()) {
                    keys.add(key);
                }
            }
        }
        return Optional.of(keys);
    }

    /** The global options at the start of {@code arguments} that choose the repository. */
    static List<String> globalOptions(List<String> arguments) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (!a.startsWith("-")) {
                break;
            }
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (WITH_VALUE.contains(name)) {
                out.add(a);
                if (!a.contains("=") && i + 1 < arguments.size()) {
                    out.add(arguments.get(++i));
                }
            } else if (FLAGS.contains(a)) {
                out.add(a);
            } else if (a.startsWith("-c") && a.length() > 2) {
                out.add(a);
            }
        }
        return out;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }
}
