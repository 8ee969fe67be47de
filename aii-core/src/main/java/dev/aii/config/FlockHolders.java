package dev.aii.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether another process holds a {@code flock(2)} lock on a file, from
 * Linux's {@code /proc/locks}. Java's file locks are {@code fcntl} locks,
 * which on Linux do not see {@code flock} ones (a script's
 * {@code flock ~/.config/aii/.allow.lock ...}), so those are looked up by
 * the file's device and inode. Elsewhere there is nothing to look up: on
 * BSD and macOS the two kinds of lock exclude each other already.
 */
final class FlockHolders {

    private static final Path LOCKS = Path.of("/proc/locks");

    private FlockHolders() {
    }

    /** Whether a {@code FLOCK} entry of {@code /proc/locks} names {@code file}; false when that cannot be told. */
    static boolean held(Path file) {
        if (!Files.isReadable(LOCKS)) {
            return false;
        }
        try {
            long dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            long ino = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
            // glibc's encoding of st_dev; /proc/locks prints the kernel's major and minor in hex
            long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
            long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
            String id = String.format("%02x:%02x:%d", major, minor, ino);
            List<String> lines = Files.readAllLines(LOCKS, StandardCharsets.ISO_8859_1);
            for (String line : lines) {
                String[] f = line.trim().split("\\s+");
                // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:2155896 0 EOF"; a waiter's line has "->" after the number
                if (f.length >= 6 && f[1].equals("FLOCK") && f[5].equals(id)) {
                    return true;
                }
            }
            return false;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException
                | SecurityException e) {
            return false;
        }
    }
}
