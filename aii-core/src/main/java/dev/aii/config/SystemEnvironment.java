package dev.aii.config;

import dev.aii.policy.Environment;
import dev.aii.policy.FileProbe;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/** The resolution environment of this process: its {@code PATH}, working directory and file system. */
public final class SystemEnvironment {

    private static final FileProbe FILES = SystemEnvironment::isExecutableRegularFile;

    private SystemEnvironment() {
    }

    /** The environment of the running process. */
    public static Environment current() {
        return of(System.getenv(), Path.of("").toAbsolutePath());
    }

    /** An environment with the given variables ({@code PATH} is read) and working directory. */
    public static Environment of(Map<String, String> env, Path workingDirectory) {
        return new Environment(env.get("PATH"), workingDirectory.toAbsolutePath().normalize().toString(), FILES);
    }

    /** The real file system as a probe: a regular file (links followed) this user may execute. */
    public static FileProbe fileProbe() {
        return FILES;
    }

    private static boolean isExecutableRegularFile(String absolutePath) {
        try {
            Path p = Path.of(absolutePath);
            return Files.isRegularFile(p) && Files.isExecutable(p);
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
