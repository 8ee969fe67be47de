package dev.aii.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the allow file's bytes, but only from a regular file of sensible
 * size: opening a FIFO would wait for a writer that never comes, and a device
 * such as {@code /dev/zero} or a huge file would never end or exhaust memory.
 * Either way aii would hang or fail at startup instead of warning. Every
 * failure carries the few words a warning gives as its reason (see
 * {@link #reason}).
 */
final class AllowFileBytes {

    /** Far beyond any hand-kept rule list (a thousand rules take some 20 KiB). */
    static final int MAX_BYTES = 1 << 20;

    /** The reason for a file over {@link #MAX_BYTES}. */
    static final String TOO_LARGE = "larger than " + MAX_BYTES + " bytes";

    /** The reason for a symbolic link whose target does not exist. */
    static final String DANGLING_LINK = "a symbolic link to a missing file";

    private AllowFileBytes() {
    }

    /**
     * The whole file (symbolic links followed).
     *
     * @throws NoSuchFileException when there is no file (a symbolic link to
     *         nothing is a file that cannot be read: {@link #DANGLING_LINK})
     * @throws IOException when it cannot be read, is a directory ({@code Is a
     *         directory}), is no regular file ({@code not a regular file}) or
     *         is larger than {@link #MAX_BYTES}
     */
    static byte[] read(Path file) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(file)) {
                throw new FileSystemException(file.toString(), null, DANGLING_LINK);
            }
            throw e;
        }
        if (attributes.isDirectory()) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
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
        return new FileSystemException(file.toString(), null, TOO_LARGE);
    }

    /**
     * The text of the file's bytes.
     *
     * @throws FileSystemException when they are not UTF-8, with the reason
     *         {@code invalid UTF-8 at line <n>} (1-based, counting line feeds)
     */
    static String decode(Path file, byte[] bytes) throws FileSystemException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int line = 1;
            for (int i = 0; i < in.position(); i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            throw new FileSystemException(file.toString(), null, "invalid UTF-8 at line " + line);
        }
        return out.flip().toString();
    }

    /** The words a warning gives for a failure to read: the system's, a little shortened where they ramble. */
    static String reason(IOException e) {
        String words = IoReasons.describe(e);
        // The JDK says "... or unable to access attributes of symbolic link" for ELOOP.
        return words.startsWith("Too many levels of symbolic links") ? "Too many levels of symbolic links" : words;
    }
}
