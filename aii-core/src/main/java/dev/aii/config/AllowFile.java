package dev.aii.config;

import dev.aii.policy.Builtins;
import dev.aii.policy.Render;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The allow file, {@code ~/.config/aii/allow}: when it exists it is the whole
 * rule set; when it does not, the built-in defaults are.
 *
 * {@snippet :
 * AllowFile file = AllowFile.at(AllowFile.defaultPath(System.getenv()));
 * AllowFile.Loaded loaded = file.load();
 * loaded.warnings().forEach(w -> System.err.println("aii: warning: " + w));
 * ExecPolicy policy = ExecPolicy.of(loaded.rules(), SystemEnvironment.current());
 * file.add(Rule.of("git", "status"));   // seeds the defaults first when there is no file
 * }
 */
public final class AllowFile {

    /** The first line of a seeded file. */
    public static final String SEED_HEADER = "# seeded from aii " + Builtins.VERSION + " built-in defaults";

    /** The second line of a seeded file. */
    public static final String SEED_COMMENT = "# one rule per line: an argv prefix";

    /** The {@code --list-allowed} source line when there is no file. */
    public static final String SOURCE_DEFAULTS = "# source: built-in defaults (no config file)";

    /** The {@code --reset-allowed} output when a file was removed. */
    public static final String RESET_REMOVED = "aii: removed config; using built-in defaults";

    /** The {@code --reset-allowed} output when there was no file. */
    public static final String RESET_NO_FILE = "aii: no config file; using built-in defaults";

    /** Where the rule set came from. */
    public enum Source {
        /** There is no file: the built-in defaults apply. */
        DEFAULTS_NO_FILE,
        /** The file exists and was read: its rules, and only them, apply. */
        FILE,
        /** The file exists but could not be read: the built-in defaults apply. */
        DEFAULTS_UNREADABLE_FILE,
        /**
         * The file exists but others could change it (it or its directory is
         * writable by group or others, or owned by another user than this one
         * or root): it is not read, and the built-in defaults apply.
         */
        DEFAULTS_UNTRUSTED_FILE
    }

    /**
     * The effective rules and what to tell the user about them.
     *
     * @param warnings texts to print after {@code aii: warning: }, in order
     */
    public record Loaded(RuleSet rules, Source source, List<String> warnings) {
        public Loaded {
            Objects.requireNonNull(rules, "rules");
            Objects.requireNonNull(source, "source");
            warnings = List.copyOf(warnings);
        }
    }

    /** What {@link #add} did. */
    public enum Added {
        /** The file did not exist; it was created with the defaults and the rule. */
        SEEDED,
        /** One line was appended. */
        APPENDED,
        /** The file already holds the rule; nothing was written. */
        ALREADY_PRESENT
    }

    /** How long {@link #add} waits for another process that holds the file's lock. */
    public static final Duration LOCK_WAIT = Duration.ofSeconds(5);

    /**
     * The rule was not saved: another process held the allow file's lock
     * for all of {@link #LOCK_WAIT}, or the wait was ended. The message is
     * {@code <path> is locked by another process}.
     */
    public static final class LockedException extends IOException {
        private static final long serialVersionUID = 1L;

        LockedException(Path path) {
            super(path + " is locked by another process");
        }
    }

    private final Path path;

    private AllowFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    /** The allow file at {@code path}. */
    public static AllowFile at(Path path) {
        return new AllowFile(path);
    }

    /**
     * {@code ~/.config/aii/allow}, where {@code ~} is {@code HOME} from {@code env}
     * when set and non-empty, else the account's home directory.
     */
    public static Path defaultPath(Map<String, String> env) {
        return Path.of(SystemEnvironment.home(env), ".config", "aii", "allow").toAbsolutePath();
    }

    /** The absolute path of the file. */
    public Path path() {
        return path;
    }

    /**
     * Reads the effective rule set; never throws (problems become warnings).
     * Only a file that does not exist means "no file": anything else that
     * stops reading it (a directory, a FIFO or device, no permission, a
     * symbolic link loop or one to a missing file, more than a mebibyte,
     * bytes that are not UTF-8) falls back to the defaults with the warning
     * {@code cannot read <path>: <reason>; using built-in defaults}, the
     * reason one of {@code Is a directory}, {@code not a regular file},
     * {@code Permission denied}, {@code Too many levels of symbolic links},
     * {@code a symbolic link to a missing file},
     * {@code larger than 1048576 bytes}, {@code invalid UTF-8 at line <n>}
     * (or the system's words for another failure).
     * So does a file others could change: one that is writable by its group
     * or others, or owned by another user than this one or root, or whose
     * directory is (warning {@code <path> is writable by others; using built-in
     * defaults}, or {@code ... is owned by another user; ...}); such a file is
     * not read at all.
     */
    public Loaded load() {
        String text;
        try {
            Optional<AllowFileTrust.Problem> distrust = AllowFileTrust.check(path);
            if (distrust.isPresent()) {
                return new Loaded(Builtins.defaults(), Source.DEFAULTS_UNTRUSTED_FILE,
                        List.of(distrust.get().warning()));
            }
            text = AllowFileBytes.decode(path, AllowFileBytes.read(path));
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(path)) {
                return unreadable(AllowFileBytes.DANGLING_LINK);
            }
            return new Loaded(Builtins.defaults(), Source.DEFAULTS_NO_FILE, List.of());
        } catch (IOException e) {
            return unreadable(AllowFileBytes.reason(e));
        }
        AllowFileParser.Parsed parsed = AllowFileParser.parse(text);
        List<String> warnings = new ArrayList<>();
        for (int line : parsed.malformedLines()) {
            warnings.add(path + ": skipping malformed line " + line);
        }
        return new Loaded(RuleSet.of(parsed.rules()), Source.FILE, warnings);
    }

    private Loaded unreadable(String reason) {
        return new Loaded(Builtins.defaults(), Source.DEFAULTS_UNREADABLE_FILE,
                List.of("cannot read " + path + ": " + reason + "; using built-in defaults"));
    }

    /** {@link #add(Rule, BooleanSupplier)} with a wait for the lock that only {@link #LOCK_WAIT} ends. */
    public Added add(Rule rule) throws IOException {
        return add(rule, () -> false);
    }

    /**
     * Persists an "always" rule: appends one line when the file exists (unless
     * it already holds the rule; an LF is written first when the file does not
     * end in one), else creates it with the defaults and the rule. Either way
     * the new content appears at once through a rename, and a lock keeps other
     * threads and aii processes doing the same from losing each other's rules.
     * The lock is waited for at most {@link #LOCK_WAIT}; temporary files a
     * writer killed in mid-write left behind are removed once it is held.
     *
     * <p>Nothing is written that the next {@link #load} could not read, since
     * every rule in the file would then be ignored: a file that does not load
     * now (reason {@code the file does not load (<why>)}), a rule that would
     * take it past the size limit ({@code the rule would make the file larger
     * than 1048576 bytes}), a symbolic link to a missing file ({@code a symbolic
     * link to a missing file}: the link is left as it is). Nor is a file or
     * directory that {@link #load} would not trust written to.
     *
     * {@snippet :
     * try {
     *     file.add(rule, cancellation::isCancelled);   // Ctrl-C ends the wait for the lock
     * } catch (AllowFile.LockedException e) {
     *     warn("could not save rule " + rule + ": " + e.getMessage());
     * } catch (IOException e) {
     *     warn("could not save rule to " + file.path() + ": " + IoReasons.describe(e));
     * }
     * }
     *
     * @param stopWaiting asked while waiting for the lock: true ends the wait
     * @throws LockedException when the lock was not had in time, or the wait was ended
     * @throws IOException when the rule could not be saved, the reason in
     *         {@link IoReasons#describe} (for an untrusted file, e.g.
     *         {@code <path> is writable by others})
     * @throws IllegalArgumentException when a token holds a line feed or an
     *         unpaired surrogate, which one line of UTF-8 cannot hold
     */
    public Added add(Rule rule, BooleanSupplier stopWaiting) throws IOException {
        Objects.requireNonNull(stopWaiting, "stopWaiting");
        return AllowFileWriter.add(path, rule, stopWaiting, LOCK_WAIT);
    }

    /**
     * Deletes the file.
     *
     * @return whether there was a file to delete
     * @throws IOException when it exists but cannot be deleted
     */
    public boolean reset() throws IOException {
        return Files.deleteIfExists(path);
    }

    /**
     * Deletes the file and says so in the words of {@code --reset-allowed}:
     * {@link #RESET_REMOVED} or {@link #RESET_NO_FILE} (without a line end).
     *
     * @throws IOException when it exists but cannot be deleted
     */
    public String resetMessage() throws IOException {
        return reset() ? RESET_REMOVED : RESET_NO_FILE;
    }

    /** The {@code --reset-allowed} error message when the file cannot be deleted. */
    public static String cannotRemove(IOException e) {
        return "Cannot remove config file: " + IoReasons.describe(e);
    }

    /**
     * The {@code --list-allowed} text: a source line, then one rule per line,
     * each line ending in LF. The source is the file's path whenever the file
     * exists, even when it could not be read or is not trusted (the defaults
     * are listed then, and {@link #load} has already warned why). Rules are
     * quote-joined as in the file; a rule or path holding a control, bidi or
     * other format character is shown escaped as at the prompt, so that the
     * listing never sends one to a terminal (such a line does not read back as
     * the same rule).
     */
    public String listing(Loaded loaded) {
        StringBuilder out = new StringBuilder();
        out.append(loaded.source() == Source.DEFAULTS_NO_FILE ? SOURCE_DEFAULTS
                : "# source: " + Render.escape(path.toString())).append('\n');
        for (Rule rule : loaded.rules().rules()) {
            out.append(Render.render(rule.lineTokens())).append('\n');
        }
        return out.toString();
    }

    /** The content of a freshly seeded file: header, the defaults in order, then {@code rule}. */
    static String seedContent(Rule rule) {
        StringBuilder out = new StringBuilder();
        out.append(SEED_HEADER).append('\n').append(SEED_COMMENT).append('\n');
        for (Rule r : Builtins.DEFAULT_RULES) {
            out.append(r.toLine()).append('\n');
        }
        if (!Builtins.DEFAULT_RULES.contains(rule)) {
            out.append(rule.toLine()).append('\n');
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
