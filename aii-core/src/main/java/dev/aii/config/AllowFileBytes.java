package dev.aii.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the allow file's bytes, but only from a regular file of sensible
 * size: opening a FIFO would wait for a writer that never comes, and a device
 * such as {@code /dev/zero} or a huge file would never end or exhaust memory.
 * Either way aii would hang or fail at startup instead of warning.
 */
final class AllowFileBytes {

    /** Far beyond any hand-kept rule list (a thousand rules take some 20 KiB). */
    static final int MAX_BYTES = 1 << 20;

    private AllowFileBytes() {
    }

    /**
     * The whole file (symbolic links followed).
     *
     * @throws java.nio.file.NoSuchFileException when there is no file
     * @throws IOException when it cannot be read, is not a regular file
     *         ({@code not a regular file}) or is larger than {@link #MAX_BYTES}
     */
    static byte[] read(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new FileSystemException(file.toString(), null, "not a regular file");
        }
        if (attributes.size() > MAX_BYTES) {
            throw tooLarge(file);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw tooLarge(file);
            }
            return bytes;
        }
    }

    private static FileSystemException tooLarge(Path file) {
        return new FileSystemException(file.toString(), null, "larger than " + MAX_BYTES + " bytes");
    }
}
