package dev.aii.config;

import dev.aii.policy.Environment;
import dev.aii.policy.FileProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

/** The resolution environment of this process: its {@code PATH}, working directory and file system. */
public final class SystemEnvironment {

    private static final FileProbe FILES = new FileProbe() {
        @Override
        public boolean isExecutableRegularFile(String absolutePath) {
            try {
                Path p = Path.of(absolutePath);
                return Files.isRegularFile(p) && Files.isExecutable(p);
            } catch (InvalidPathException e) {
                return false;
            }
        }

        @Override
        public Target target(String absolutePath) {
            return targetOf(absolutePath);
        }
    };

    private SystemEnvironment() {
    }

    /**
     * {@code ~}: {@code HOME} from {@code env} when set and non-empty, else the
     * account's home directory ({@code user.home}).
     */
    public static String home(Map<String, String> env) {
        String home = env.get("HOME");
        return home == null || home.isEmpty() ? System.getProperty("user.home") : home;
    }

    /** The environment of the running process. */
    public static Environment current() {
        return of(System.getenv(), Path.of("").toAbsolutePath());
    }

    /**
     * An environment with the given variables ({@code PATH} is read) and
     * working directory. It remembers where it found each program along
     * {@code PATH}, checking the remembered file at each use
     * ({@link FileProbe#rememberingPrograms}); make a new one to forget.
     */
    public static Environment of(Map<String, String> env, Path workingDirectory) {
        return new Environment(env.get("PATH"), workingDirectory.toAbsolutePath().normalize().toString(),
                FileProbe.rememberingPrograms(FILES));
    }

    /**
     * The real file system as a probe: executables are regular files (links
     * followed) this user may execute; a target is what {@code stat} and
     * {@code realpath} say. Neither opens anything, so probing a terminal or a
     * FIFO never blocks.
     */
    public static FileProbe fileProbe() {
        return FILES;
    }

    private static FileProbe.Target targetOf(String absolutePath) {
        Path p;
        BasicFileAttributes attributes;
        try {
            p = Path.of(absolutePath);
            attributes = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (InvalidPathException | IOException | SecurityException e) {
            // Not there, or not reachable by this user: the command cannot reach it either.
            return FileProbe.Target.MISSING;
        }
        String real;
        try {
            real = p.toRealPath().toString();
        } catch (IOException | SecurityException e) {
            // It exists but cannot be resolved (it may have changed meanwhile): say so, and let the policy ask.
            return new FileProbe.Target(FileProbe.Kind.OTHER, p.toAbsolutePath().normalize().toString());
        }
        FileProbe.Kind kind = attributes.isRegularFile() ? FileProbe.Kind.REGULAR_FILE
                : attributes.isDirectory() ? FileProbe.Kind.DIRECTORY : FileProbe.Kind.OTHER;
        return new FileProbe.Target(kind, real);
    }
}
