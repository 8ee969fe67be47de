package dev.aii.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a git is new enough for the environment aii runs it in under a
 * rule: {@code GIT_NO_LAZY_FETCH}, which keeps a partial clone from fetching
 * what a command asks for, came with git 2.45 (a distribution may have
 * backported it to an older one, which aii cannot tell: it goes by the
 * version git reports). Each git is asked once per tool, again when its file
 * changes.
 */
final class GitVersion {

    /** The oldest git whose environment aii can lock down. */
    static final int[] NEEDED = {2, 45};

    private static final Pattern VERSION = Pattern.compile("git version (\\d+)\\.(\\d+)[^\\s]*");

    /** What each git (by path, size and time) said, or why it could not tell. */
    private final Map<String, Optional<String>> seen = new ConcurrentHashMap<>();

    /**
     * Why git at {@code path} must not run under a rule, or empty when it may:
     * it is older than {@link #NEEDED}, or did not say which version it is.
     */
    Optional<String> tooOld(CommandRunner runner, String path, Map<String, String> environment, Limits limits,
                            Cancellation cancellation) {
        String key = key(path);
        Optional<String> known = key == null ? null : seen.get(key);
        if (known != null) {
            return known;
        }
        RunResult result = runner.run(path, java.util.List.of("--version"), environment,
                limits.withOutputCap(4096), cancellation);
        Optional<String> reason;
        if (result instanceof RunResult.Exited exited && exited.status() == 0) {
            reason = judge(new String(exited.output().head(), StandardCharsets.UTF_8).strip());
        } else {
            // Not remembered: the next command asks again.
            return judge("");
        }
        if (key != null) {
            seen.put(key, reason);
        }
        return reason;
    }

    /** The reason {@code versionLine} ({@code git version 2.39.5}) gives to ask, or empty when it is new enough. */
    static Optional<String> judge(String versionLine) {
        Matcher m = VERSION.matcher(versionLine);
        String needed = NEEDED[0] + "." + NEEDED[1];
        if (!m.lookingAt()) {
            return Optional.of("aii could not tell which git this is, and its git environment needs " + needed
                    + " or newer (GIT_NO_LAZY_FETCH)");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major > NEEDED[0] || (major == NEEDED[0] && minor >= NEEDED[1])) {
            return Optional.empty();
        }
        return Optional.of("git " + m.group().substring("git version ".length()) + " is older than " + needed
                + ", which aii's git environment needs (GIT_NO_LAZY_FETCH)");
    }

    /** {@code path}, its size and its time, or null when they cannot be read (then nothing is remembered). */
    private static String key(String path) {
        try {
            BasicFileAttributes a = Files.readAttributes(Path.of(path), BasicFileAttributes.class);
            return path + "\0" + a.size() + "\0" + a.lastModifiedTime().toMillis();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
