package dev.aii.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Removes the temporary files a writer killed in mid-write left beside the
 * allow file ({@code .allow.<digits>.tmp}, as {@code Files.createTempFile}
 * names them). Called only while holding the lock, when no live writer can
 * own one. Nothing else is touched: the name must match exactly, and only
 * regular files (not links) go.
 */
final class StaleFiles {

    private StaleFiles() {
    }

    static void remove(Path dir, String fileName) throws IOException {
        Pattern temp = Pattern.compile(Pattern.quote("." + fileName + ".") + "[0-9]+" + Pattern.quote(".tmp"));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "." + fileName + ".*.tmp")) {
            for (Path entry : entries) {
                if (temp.matcher(entry.getFileName().toString()).matches()
                        && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(entry);
                }
            }
        }
    }
}
