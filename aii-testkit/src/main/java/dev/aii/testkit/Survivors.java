package dev.aii.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Counts what a test's commands left running, by a marker no other process
 * has: a variable {@code AII_TEST_MARK=<random>} put into the command's
 * environment (run it through {@code env}, see {@link #command}), which every
 * process it starts inherits, whatever session, group or parent it ends up
 * with. Found with a scan of Linux {@code /proc/<pid>/environ}; zombies have
 * no environment there, so only live processes count.
 *
 * {@snippet :
 * Survivors mark = Survivors.mark();
 * runner.run(Programs.path("env"), mark.command("sh", "-c", "setsid sleep 300 &"), limits, cancellation);
 * assertEquals(List.of(), mark.awaitNone(Duration.ofSeconds(10)));
 * }
 */
public final class Survivors {

    private final String assignment;

    private Survivors(String assignment) {
        this.assignment = assignment;
    }

    /** A new marker. */
    public static Survivors mark() {
        return new Survivors("AII_TEST_MARK=" + UUID.randomUUID());
    }

    /** {@code AII_TEST_MARK=<random>}, as {@code env} takes it. */
    public String assignment() {
        return assignment;
    }

    /**
     * The arguments of {@code env} that run {@code program} (by its path on
     * {@code PATH}) with the marker: use with the path of {@code env}.
     */
    public List<String> command(String program, String... arguments) {
        List<String> argv = new ArrayList<>();
        argv.add(assignment);
        argv.add(Programs.path(program));
        argv.addAll(List.of(arguments));
        return argv;
    }

    /** The live processes that carry the marker, each as {@code <pid> <name>}. */
    public List<String> live() {
        byte[] needle = (assignment + "\0").getBytes(StandardCharsets.UTF_8);
        List<String> found = new ArrayList<>();
        try (DirectoryStream<Path> list = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path dir : list) {
                String name = dir.getFileName().toString();
                if (name.isEmpty() || !name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                byte[] environ;
                try {
                    environ = Files.readAllBytes(dir.resolve("environ"));
                } catch (IOException e) {
                    continue;
                }
                if (contains(environ, needle) && Programs.isRunning(Long.parseLong(name))) {
                    found.add(name + " " + comm(dir));
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc", e);
        }
        return found;
    }

    /**
     * Waits up to {@code limit} for every marked process to be gone (one
     * killed a moment ago may still be on its way out).
     *
     * @return the survivors at the end: empty when there are none
     */
    public List<String> awaitNone(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        List<String> live = live();
        while (!live.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
            live = live();
        }
        return live;
    }

    private static String comm(Path dir) {
        try {
            return Files.readString(dir.resolve("comm")).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (i > 0 && haystack[i - 1] != 0) {
                continue;
            }
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
