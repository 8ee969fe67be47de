package dev.aii.cli.input;

import dev.aii.config.IoReasons;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where {@code -i} keeps its line history: {@code ~/.config/aii/history}
 * (mode 0600 in a directory made 0700, the last {@value #LINES} lines), or
 * nowhere with {@code AII_HISTORY=off}. Readied here before the line editor
 * touches it: the editor reads the whole file at once and opens what it is
 * given, so a file that is not a regular one (a FIFO would never answer) or
 * is implausibly large is left alone with a warning, and the session keeps
 * its history in memory only.
 */
public final class HistoryFile {

    /** How many lines are kept. */
    static final int LINES = 1_000;

    /** Larger than any history of {@value #LINES} lines a person types or pastes. */
    static final long MAX_BYTES = 16L << 20;

    static final String VARIABLE = "AII_HISTORY";

    private static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");

    private HistoryFile() {
    }

    /** {@code ~/.config/aii/history}, {@code ~} as everywhere in aii. */
    static Path defaultPath(String home) {
        return Path.of(home, ".config", "aii", "history").toAbsolutePath();
    }

    /**
     * The history file to use, made ready (its directory, the file with mode
     * 0600), or empty when {@code AII_HISTORY=off} or it cannot be used, which
     * {@code warning} is told as {@code not keeping history in <path>: <reason>}.
     */
    public static Optional<Path> ready(Map<String, String> env, String home, Consumer<String> warning) {
        String setting = env.get(VARIABLE);
        if (setting != null && setting.strip().toLowerCase(Locale.ROOT).equals("off")) {
            return Optional.empty();
        }
        Path file = defaultPath(home);
        try {
            prepare(file);
            trim(file);
            return Optional.of(file);
        } catch (Unusable e) {
            warning.accept(notKept(file, e.getMessage()));
        } catch (IOException e) {
            warning.accept(notKept(file, IoReasons.describe(e)));
        }
        return Optional.empty();
    }

    /**
     * Keeps only the last {@value #LINES} lines of {@code file}: done when a
     * session opens it and when it ends, since the line editor lets the file
     * grow a quarter past its size before it trims. The new content is
     * written beside the file's real path (a symlink to it stays one) and
     * renamed over it, so a reader never sees half of it.
     */
    static void trim(Path file) throws IOException {
        Path real = file.toRealPath();
        java.util.List<String> lines = Files.readAllLines(real, java.nio.charset.StandardCharsets.UTF_8);
        if (lines.size() <= LINES) {
            return;
        }
        Path temp = Files.createTempFile(real.getParent(), "." + real.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_RW));
        try {
            Files.write(temp, lines.subList(lines.size() - LINES, lines.size()), java.nio.charset.StandardCharsets.UTF_8);
            Files.move(temp, real, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    static String notKept(Path file, String reason) {
        return "not keeping history in " + file + ": " + reason;
    }

    private static void prepare(Path file) throws IOException {
        Path dir = file.getParent();
        directory(dir.getParent(), null);   // ~/.config, as the umask says
        directory(dir, OWNER_RWX);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_RW));
        } catch (FileAlreadyExistsException e) {
            // Kept from before; checked below.
        }
        if (!Files.isRegularFile(file)) {   // symlinks followed: a link to a regular file is fine
            throw new Unusable("not a regular file");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new Unusable("larger than " + (MAX_BYTES >> 20) + " MiB");
        }
        if (!Files.getPosixFilePermissions(file).equals(OWNER_RW)) {
            try {
                Files.setPosixFilePermissions(file, OWNER_RW);
            } catch (IOException e) {
                throw new Unusable("cannot make it private (mode 0600): " + IoReasons.describe(e));
            }
        }
        if (!Files.isWritable(file)) {
            throw new Unusable("not writable");
        }
    }

    /**
     * Makes {@code dir} when it is missing, with {@code mode} when given (its
     * parent must exist: a missing home is not made).
     */
    private static void directory(Path dir, Set<PosixFilePermission> mode) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            if (mode == null) {
                Files.createDirectory(dir);
            } else {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(mode));
                Files.setPosixFilePermissions(dir, mode);   // the umask narrowed the attribute
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw new Unusable(dir + " is not a directory");
            }
        }
    }

    /** Why a history file is not used, in a few words. */
    private static final class Unusable extends IOException {
        private static final long serialVersionUID = 1L;

        Unusable(String reason) {
            super(reason);
        }
    }
}
