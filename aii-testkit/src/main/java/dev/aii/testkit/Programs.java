package dev.aii.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the programs tests run, and tells whether a process is still running. */
public final class Programs {

    private Programs() {
    }

    /**
     * The absolute path of {@code name} on this JVM's {@code PATH}.
     *
     * @throws AssertionError when it is not installed, naming it
     */
    public static String path(String name) {
        String search = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
        for (String dir : search.split(File.pathSeparator)) {
            if (dir.startsWith("/")) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        throw new AssertionError("the tests need " + name + " on PATH (" + search + ")");
    }

    /**
     * Whether the process {@code pid} exists and is not a zombie (a dead
     * child nobody has reaped yet counts as gone).
     */
    public static boolean isRunning(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (Files.isDirectory(Path.of("/proc/self"))) {
            try {
                String text = Files.readString(stat);
                // The state follows the command name, which is in parentheses and may hold anything.
                char state = text.charAt(text.lastIndexOf(')') + 2);
                return state != 'Z' && state != 'X';
            } catch (IOException e) {
                return false;
            }
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
