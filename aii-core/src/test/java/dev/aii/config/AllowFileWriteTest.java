package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Rule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class AllowFileWriteTest {

    static final String SEEDED = "# seeded from aii 0.9.0 built-in defaults\n"
            + "# one rule per line: an argv prefix\n"
            + "ls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\nuname\ndf\ndu\nstat\nfile\nwhich\nps\nuptime\nsw_vers\n";

    @TempDir
    Path home;

    private AllowFile file() {
        return AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
    }

    private String content() throws IOException {
        return Files.readString(file().path());
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private List<String> entriesOf(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theFirstAlwaysSeedsTheDefaultsAndTheRuleByteForByte() throws IOException {
        assertEquals(AllowFile.Added.SEEDED, file().add(Rule.of("git", "status")));
        assertEquals(SEEDED + "git status\n", content());
        assertEquals("rw-------", mode(file().path()));
        assertEquals("rwx------", mode(file().path().getParent()));
        assertEquals(List.of(".allow.lock", "allow"), entriesOf(file().path().getParent()));
    }

    @Test
    void seedingKeepsAnExistingConfigDirectoryAsItIsAndMakesOursPrivate() throws IOException {
        Path config = Files.createDirectories(home.resolve(".config"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
        file().add(Rule.of("git", "status"));
        assertEquals("rwxr-xr-x", mode(config));
        assertEquals("rwx------", mode(config.resolve("aii")));
    }

    @Test
    void seedingWithADefaultRuleWritesItOnce() throws IOException {
        assertEquals(AllowFile.Added.SEEDED, file().add(Rule.of("ls")));
        assertEquals(SEEDED, content());
    }

    @Test
    void laterAlwaysAnswersAppendOneLineEach() throws IOException {
        file().add(Rule.of("git", "status"));
        assertEquals(AllowFile.Added.APPENDED, file().add(Rule.of("brew", "list")));
        assertEquals(AllowFile.Added.APPENDED, file().add(Rule.of("grep", "-e", "a b", "it's", "")));
        assertEquals(SEEDED + "git status\nbrew list\ngrep -e 'a b' 'it'\\''s' ''\n", content());
        assertEquals("rw-------", mode(file().path()));
        assertEquals(List.of(Rule.of("git", "status"), Rule.of("brew", "list"), Rule.of("grep", "-e", "a b", "it's", "")),
                file().load().rules().rules().subList(17, 20));
    }

    @Test
    void appendingAfterAFileWithoutAFinalLineFeedWritesOneFirst() throws IOException {
        Files.createDirectories(file().path().getParent());
        Files.writeString(file().path(), "ls\ncat");
        assertEquals(AllowFile.Added.APPENDED, file().add(Rule.of("git", "log")));
        assertEquals("ls\ncat\ngit log\n", content());
    }

    @Test
    void appendingToAnEmptyFileWritesJustTheLine() throws IOException {
        Files.createDirectories(file().path().getParent());
        Files.writeString(file().path(), "");
        assertEquals(AllowFile.Added.APPENDED, file().add(Rule.of("git", "log")));
        assertEquals("git log\n", content());
    }

    @Test
    void appendingKeepsEveryExistingByteAndTheFilesMode() throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        byte[] before = "# mine\r\nls -l \r\n\n\t'my tool'\n\u00E9\n".getBytes(StandardCharsets.UTF_8);
        Files.write(path, before);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r-----"));
        file().add(Rule.of("git", "log"));
        assertEquals(new String(before, StandardCharsets.UTF_8) + "git log\n", content());
        assertEquals("rw-r-----", mode(path));
    }

    @Test
    void aRuleAlreadyInTheFileIsNotAddedAgain() throws IOException {
        file().add(Rule.of("git", "status"));
        assertEquals(AllowFile.Added.ALREADY_PRESENT, file().add(Rule.of("git", "status")));
        assertEquals(AllowFile.Added.ALREADY_PRESENT, file().add(Rule.of("ls")));
        assertEquals(SEEDED + "git status\n", content());
    }

    @Test
    void aRuleWrittenDifferentlyInTheFileIsTheSameRule() throws IOException {
        Files.createDirectories(file().path().getParent());
        Files.writeString(file().path(), "  'git'   \"status\"  \n");
        assertEquals(AllowFile.Added.ALREADY_PRESENT, file().add(Rule.of("git", "status")));
        assertEquals("  'git'   \"status\"  \n", content());
    }

    @Test
    void aSymbolicallyLinkedFileStaysALinkAndItsTargetGrows() throws IOException {
        Path target = Files.createDirectories(home.resolve("dotfiles")).resolve("allow");
        Files.writeString(target, "ls\n");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createDirectories(file().path().getParent());
        Files.createSymbolicLink(file().path(), target);
        file().add(Rule.of("git", "log"));
        assertTrue(Files.isSymbolicLink(file().path()));
        assertEquals("ls\ngit log\n", Files.readString(target));
        assertEquals("rw-r--r--", mode(target));
        assertEquals(List.of("allow"), entriesOf(target.getParent()));
    }

    @Test
    void aRuleThatCannotBeOneLineIsRefusedAndNothingIsWritten() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> file().add(Rule.of("echo", "a\nb")));
        assertEquals("a rule with a line feed or an unpaired surrogate cannot be written as one line of UTF-8: "
                + "[echo, a\nb]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> file().add(Rule.of("echo", "\uD800")));
        assertFalse(Files.exists(home.resolve(".config")));
    }

    @Test
    void aFileInPlaceOfTheDirectoryFailsWithAReason() throws IOException {
        Files.createDirectories(home.resolve(".config"));
        Files.writeString(home.resolve(".config/aii"), "");
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals("File exists", IoReasons.describe(e));
    }

    @Test
    @Timeout(10)
    void aFifoInPlaceOfTheFileIsNotWaitedOnAndNothingIsWritten() throws Exception {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals("not a regular file", IoReasons.describe(e));
        assertFalse(Files.isRegularFile(path), "the FIFO was replaced");
    }

    @Test
    @Timeout(10)
    void aFifoInPlaceOfTheLockFileIsNotWaitedOn() throws Exception {
        Path lock = AllowFileWriter.lockFile(file().path());
        Files.createDirectories(lock.getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", lock.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals("not a regular file", IoReasons.describe(e));
        assertFalse(Files.exists(file().path()));
    }

    @Test
    void resetRemovesTheFileThenFindsNoneTheSecondTime() throws IOException {
        file().add(Rule.of("git", "status"));
        assertEquals("aii: removed config; using built-in defaults", file().resetMessage());
        assertFalse(Files.exists(file().path()));
        assertEquals("aii: no config file; using built-in defaults", file().resetMessage());
        assertEquals(AllowFile.Source.DEFAULTS_NO_FILE, file().load().source());
    }

    @Test
    void resetReportsWhetherThereWasAFile() throws IOException {
        assertFalse(file().reset());
        file().add(Rule.of("git", "status"));
        assertTrue(file().reset());
        assertFalse(file().reset());
    }

    @Test
    void aFileThatCannotBeRemovedGivesTheReason() throws IOException {
        Files.createDirectories(file().path().resolve("inside"));
        IOException e = assertThrows(IOException.class, () -> file().reset());
        assertEquals("Cannot remove config file: Directory not empty", AllowFile.cannotRemove(e));
    }

    @Test
    void theListingAfterSeedingNamesTheFile() throws IOException {
        file().add(Rule.of("git", "status"));
        assertEquals("# source: " + file().path() + "\n" + AllowFileLoadTest.DEFAULTS_LISTING + "git status\n",
                file().listing(file().load()));
    }

    private Path existing(byte[] content) throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        return Files.write(path, content);
    }

    private void assertRefused(String reason, byte[] before) throws IOException {
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals(reason, IoReasons.describe(e));
        assertArrayEquals(before, Files.readAllBytes(file().path()), "the file was changed");
        assertEquals(List.of(".allow.lock", "allow"), entriesOf(file().path().getParent()));
    }

    @Test
    void aFileThatDoesNotLoadForInvalidUtf8IsNotAppendedTo() throws IOException {
        // Appending would leave a file whose rules the next start ignores, the new one with them.
        byte[] before = {'l', 's', '\n', (byte) 0xFF, '\n'};
        existing(before);
        assertRefused("the file does not load (invalid UTF-8 at line 2)", before);
    }

    @Test
    void aFileThatDoesNotLoadForItsSizeIsNotAppendedTo() throws IOException {
        byte[] before = ("ls\n" + "#".repeat(AllowFileBytes.MAX_BYTES) + "\n").getBytes(StandardCharsets.UTF_8);
        existing(before);
        assertRefused("the file does not load (larger than 1048576 bytes)", before);
    }

    @Test
    void aRuleThatWouldTakeTheFilePastTheSizeLimitIsNotAppended() throws IOException {
        int line = "git log\n".length();
        byte[] full = ("#".repeat(AllowFileBytes.MAX_BYTES - line) + "\n").getBytes(StandardCharsets.UTF_8);
        existing(full);
        assertRefused("the rule would make the file larger than 1048576 bytes", full);
        // One byte less, and the rule fits exactly: written, and the file still loads.
        existing(java.util.Arrays.copyOfRange(full, 1, full.length));
        assertEquals(AllowFile.Added.APPENDED, file().add(Rule.of("git", "log")));
        assertEquals(AllowFileBytes.MAX_BYTES, Files.size(file().path()));
        assertEquals(List.of(Rule.of("git", "log")), file().load().rules().rules());
    }

    @Test
    void aDanglingSymbolicLinkIsNeitherReplacedNorFollowed() throws IOException {
        Path target = home.resolve("dotfiles/allow");
        Files.createDirectories(file().path().getParent());
        Files.createSymbolicLink(file().path(), target);
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals("a symbolic link to a missing file", IoReasons.describe(e));
        assertTrue(Files.isSymbolicLink(file().path()), "the link was replaced");
        assertEquals(target, Files.readSymbolicLink(file().path()));
        assertFalse(Files.exists(home.resolve("dotfiles")), "the link was followed");
    }

    @Test
    void temporaryFilesAKilledWriterLeftAreRemovedAndNothingElse() throws IOException {
        Path dir = Files.createDirectories(file().path().getParent());
        Files.writeString(file().path(), "ls\n");
        for (String name : List.of(".allow.123.tmp", ".allow.9223372036854775807.tmp", ".allow.x.tmp",
                ".allow.12.tmp.keep", "allow.12.tmp", ".other.12.tmp", "notes.tmp")) {
            Files.writeString(dir.resolve(name), "half a write");
        }
        Files.createSymbolicLink(dir.resolve(".allow.77.tmp"), home.resolve("elsewhere"));
        file().add(Rule.of("git", "log"));
        assertEquals(List.of(".allow.12.tmp.keep", ".allow.lock", ".allow.x.tmp", ".other.12.tmp", "allow",
                "allow.12.tmp", "notes.tmp"), entriesOf(dir).stream().filter(n -> !n.equals(".allow.77.tmp")).toList());
        assertTrue(Files.isSymbolicLink(dir.resolve(".allow.77.tmp")), "a link is not a temporary file of aii's");
        assertEquals("ls\ngit log\n", content());
    }

    @Test
    void temporaryFilesBesideTheTargetOfALinkAreRemovedToo() throws IOException {
        Path target = Files.createDirectories(home.resolve("dotfiles")).resolve("aii-rules");
        Files.writeString(target, "ls\n");
        Files.writeString(target.resolveSibling(".aii-rules.42.tmp"), "half a write");
        Files.createDirectories(file().path().getParent());
        Files.createSymbolicLink(file().path(), target);
        file().add(Rule.of("git", "log"));
        assertEquals(List.of("aii-rules"), entriesOf(target.getParent()));
    }
}
