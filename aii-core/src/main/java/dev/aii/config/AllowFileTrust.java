package dev.aii.config;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Whether the allow file can be trusted: it decides what runs without asking,
 * so nobody but this user (or root) may be able to change it, neither by
 * writing to it nor by putting another file in its place. That holds when the
 * file and the directory it is in (for a symbolic link, the link's directory
 * and the target's) are owned by this user or root and are not writable by
 * their group or others.
 */
final class AllowFileTrust {

    /**
     * Why a path cannot be trusted.
     *
     * @param path the file or directory at fault
     * @param why {@code is writable by others} or {@code is owned by another user}
     */
    record Problem(Path path, String why) {

        /** The sentence after {@code aii: warning: } when loading. */
        String warning() {
            return path + " " + why + "; using built-in defaults";
        }

        /** The reason a rule is not saved there. */
        String reason() {
            return path + " " + why;
        }
    }

    static final String WRITABLE_BY_OTHERS = "is writable by others";
    static final String OWNED_BY_ANOTHER_USER = "is owned by another user";

    private AllowFileTrust() {
    }

    /**
     * The first problem with {@code file}, checking the file itself first
     * (following symbolic links), then its directories; empty when it can be
     * trusted, or on a file system without POSIX owners and modes.
     *
     * @throws java.nio.file.NoSuchFileException when the file does not exist
     * @throws IOException when its attributes cannot be read
     */
    static Optional<Problem> check(Path file) throws IOException {
        if (!Files.getFileStore(file).supportsFileAttributeView("unix")) {
            return Optional.empty();
        }
        OptionalLong me = currentUid();
        Set<Path> paths = new LinkedHashSet<>();
        paths.add(file);
        paths.add(file.toAbsolutePath().getParent());
        paths.add(file.toRealPath().getParent());
        for (Path path : paths) {
            Optional<Problem> problem = problemOf(path, me);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    /**
     * The problem with the directory a new file would be created in; empty
     * when it can be trusted or does not exist yet (it is then created
     * owner-only).
     */
    static Optional<Problem> checkDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir) || !Files.getFileStore(dir).supportsFileAttributeView("unix")) {
            return Optional.empty();
        }
        return problemOf(dir, currentUid());
    }

    /** The problem with one path (symbolic links followed), if any. */
    private static Optional<Problem> problemOf(Path path, OptionalLong me) throws IOException {
        int owner = (Integer) Files.getAttribute(path, "unix:uid");
        if (owner != 0 && me.isPresent() && owner != me.getAsLong()) {
            return Optional.of(new Problem(path, OWNED_BY_ANOTHER_USER));
        }
        Set<PosixFilePermission> mode = Files.readAttributes(path, PosixFileAttributes.class).permissions();
        if (mode.contains(PosixFilePermission.GROUP_WRITE) || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of(new Problem(path, WRITABLE_BY_OTHERS));
        }
        return Optional.empty();
    }

    /** This process's user id; empty only where the JDK cannot say (then ownership is not checked). */
    private static OptionalLong currentUid() {
        try {
            return OptionalLong.of(new UnixSystem().getUid());
        } catch (RuntimeException | LinkageError e) {
            return OptionalLong.empty();
        }
    }
}
