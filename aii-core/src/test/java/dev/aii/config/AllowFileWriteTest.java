package dev.aii.config;

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
}
