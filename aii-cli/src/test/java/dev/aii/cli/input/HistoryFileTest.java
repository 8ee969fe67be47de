package dev.aii.cli.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where -i keeps its history, readied before the line editor opens it. */
class HistoryFileTest {

    @TempDir
    Path home;

    private final List<String> warnings = new ArrayList<>();

    private Optional<Path> ready(Map<String, String> env) {
        return HistoryFile.ready(env, home.toString(), warnings::add);
    }

    private Path file() {
        return home.resolve(".config/aii/history");
    }

    @Test
    void theFileIsMadePrivateInAPrivateDirectory() throws IOException {
        assertEquals(Optional.of(file()), ready(Map.of()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file().getParent())));
        assertEquals(0, Files.size(file()));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aFileOthersCouldReadIsMadePrivateAndKeepsItsLines() throws IOException {
        Files.createDirectories(file().getParent());
        Files.writeString(file(), "what is a monad?\n");
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(Optional.of(file()), ready(Map.of()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file())));
        assertEquals("what is a monad?\n", Files.readString(file()));
    }

    @Test
    void anExistingDirectoryKeepsItsMode() throws IOException {
        Files.createDirectories(file().getParent());
        Files.setPosixFilePermissions(file().getParent(), PosixFilePermissions.fromString("rwxr-x---"));
        assertEquals(Optional.of(file()), ready(Map.of()));
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(file().getParent())));
    }

    @Test
    void offKeepsNoneAndTouchesNothing() {
        for (String off : List.of("off", "OFF", " off ")) {
            assertEquals(Optional.empty(), ready(Map.of("AII_HISTORY", off)), off);
        }
        assertFalse(Files.exists(home.resolve(".config")));
        assertEquals(List.of(), warnings);
        assertEquals(Optional.of(file()), ready(Map.of("AII_HISTORY", "on")));
    }

    @Test
    void aFifoIsNeverOpenedForItWouldNeverAnswer() throws Exception {
        Files.createDirectories(file().getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", file().toString()).start();
        assertEquals(0, mkfifo.waitFor());
        assertEquals(Optional.empty(), ready(Map.of()));
        assertEquals(List.of("not keeping history in " + file() + ": not a regular file"), warnings);
    }

    @Test
    void aSymlinkToADeviceOrADirectoryIsNotUsedButOneToARegularFileIs() throws IOException {
        Files.createDirectories(file().getParent());
        Files.createSymbolicLink(file(), Path.of("/dev/zero"));
        assertEquals(Optional.empty(), ready(Map.of()));
        Files.delete(file());
        Files.createSymbolicLink(file(), home);
        assertEquals(Optional.empty(), ready(Map.of()));
        Files.delete(file());
        Path elsewhere = Files.writeString(home.resolve("dotfiles-history"), "");
        Files.createSymbolicLink(file(), elsewhere);
        assertEquals(Optional.of(file()), ready(Map.of()));
        assertEquals(List.of("not keeping history in " + file() + ": not a regular file",
                "not keeping history in " + file() + ": not a regular file"), warnings);
    }

    @Test
    void anImplausiblyLargeFileIsLeftAlone() throws IOException {
        Files.createDirectories(file().getParent());
        try (var channel = java.nio.channels.FileChannel.open(file(), java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {'x'}), HistoryFile.MAX_BYTES);   // sparse
        }
        assertEquals(Optional.empty(), ready(Map.of()));
        assertEquals(List.of("not keeping history in " + file() + ": larger than 16 MiB"), warnings);
    }

    @Test
    void aHomeThatDoesNotExistIsNotMade() {
        Path missing = home.resolve("gone");
        assertEquals(Optional.empty(), HistoryFile.ready(Map.of(), missing.toString(), warnings::add));
        assertFalse(Files.exists(missing));
        assertEquals(List.of("not keeping history in " + missing.resolve(".config/aii/history")
                + ": No such file or directory"), warnings);
    }

    @Test
    void aConfigThatIsAFileGivesAWarningAndNothingIsMade() throws IOException {
        Files.writeString(home.resolve(".config"), "not a directory");
        assertEquals(Optional.empty(), ready(Map.of()));
        assertEquals(List.of("not keeping history in " + file() + ": " + home.resolve(".config")
                + " is not a directory"), warnings);
        assertEquals("not a directory", Files.readString(home.resolve(".config")));
    }

    @Test
    void openingTrimsToTheLast1000LinesAndASymlinkStaysOne() throws IOException {
        Path real = Files.writeString(home.resolve("dotfiles-history"), "");
        List<String> lines = java.util.stream.IntStream.rangeClosed(1, 1005).mapToObj(i -> "line " + i).toList();
        Files.write(real, lines);
        Files.createDirectories(file().getParent());
        Files.createSymbolicLink(file(), real);
        assertEquals(Optional.of(file()), ready(Map.of()));
        assertEquals(lines.subList(5, 1005), Files.readAllLines(real));
        assertTrue(Files.isSymbolicLink(file()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(real)));
        try (var left = Files.list(home)) {
            assertEquals(List.of(home.resolve(".config"), real), left.sorted().toList());
        }
    }

    @Test
    void aFileOfAtMost1000LinesIsLeftAsItIs() throws IOException {
        Files.createDirectories(file().getParent());
        List<String> lines = java.util.stream.IntStream.rangeClosed(1, 1000).mapToObj(i -> "line " + i).toList();
        Files.write(file(), lines);
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-------"));
        var before = Files.getLastModifiedTime(file());
        HistoryFile.trim(file());
        assertEquals(lines, Files.readAllLines(file()));
        assertEquals(before, Files.getLastModifiedTime(file()));
    }
}
