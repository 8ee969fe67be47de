package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An allow file that others could change is not trusted: the defaults apply. */
class AllowFileTrustTest {

    @TempDir
    Path home;

    private AllowFile file() {
        return AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
    }

    /** The allow file with {@code text}, the file 0600 and its directory 0700, as aii itself makes them. */
    private Path write(String text) throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Files.setPosixFilePermissions(path.getParent(), PosixFilePermissions.fromString("rwx------"));
        Files.writeString(path, text);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        return path;
    }

    private static void chmod(Path path, String mode) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
    }

    private void assertUntrusted(String warning) {
        AllowFile.Loaded loaded = file().load();
        assertEquals(Builtins.defaults(), loaded.rules());
        assertEquals(AllowFile.Source.DEFAULTS_UNTRUSTED_FILE, loaded.source());
        assertEquals(List.of(warning), loaded.warnings());
    }

    @Test
    void anOwnerOnlyFileIsTrusted() throws IOException {
        write("git status\n");
        AllowFile.Loaded loaded = file().load();
        assertEquals(AllowFile.Source.FILE, loaded.source());
        assertEquals(RuleSet.of(List.of(Rule.of("git", "status"))), loaded.rules());
    }

    @Test
    void aFileReadableByOthersIsTrusted() throws IOException {
        Path path = write("git status\n");
        chmod(path, "rw-r--r--");
        chmod(path.getParent(), "rwxr-xr-x");
        assertEquals(AllowFile.Source.FILE, file().load().source());
    }

    @Test
    void aFileWritableByOthersIsNotTrusted() throws IOException {
        Path path = write("git status\n");
        chmod(path, "rw-rw-rw-");
        assertUntrusted(path + " is writable by others; using built-in defaults");
    }

    @Test
    void aFileWritableByItsGroupIsNotTrusted() throws IOException {
        Path path = write("git status\n'broken\n");
        chmod(path, "rw-rw----");
        // Not read at all: no warning about its malformed line.
        assertUntrusted(path + " is writable by others; using built-in defaults");
    }

    @Test
    void aDirectoryWritableByOthersMakesTheFileUntrusted() throws IOException {
        Path path = write("git status\n");
        chmod(path.getParent(), "rwxrwxr-x");
        assertUntrusted(path.getParent() + " is writable by others; using built-in defaults");
    }

    @Test
    void aLinkedFileIsJudgedByItsTargetAndBothDirectories() throws IOException {
        Path dotfiles = Files.createDirectories(home.resolve("dotfiles"));
        chmod(dotfiles, "rwx------");
        Path target = Files.writeString(dotfiles.resolve("allow"), "git log\n");
        chmod(target, "rw-------");
        Path link = file().path();
        Files.createDirectories(link.getParent());
        chmod(link.getParent(), "rwx------");
        Files.createSymbolicLink(link, target);
        assertEquals(RuleSet.of(List.of(Rule.of("git", "log"))), file().load().rules());
        chmod(dotfiles, "rwxrwxrwx");
        assertUntrusted(dotfiles + " is writable by others; using built-in defaults");
        chmod(dotfiles, "rwx------");
        chmod(target, "rw--w--w-");
        assertUntrusted(link + " is writable by others; using built-in defaults");
    }

    @Test
    void listAllowedNamesTheFileListsTheDefaultsAndTheLoadWarns() throws IOException {
        Path path = write("git status\n");
        chmod(path, "rw-rw-rw-");
        AllowFile.Loaded loaded = file().load();
        assertEquals("# source: " + path + "\n" + AllowFileLoadTest.DEFAULTS_LISTING, file().listing(loaded));
    }

    @Test
    void alwaysDoesNotWriteToAnUntrustedFile() throws IOException {
        Path path = write("git status\n");
        chmod(path, "rw-rw-rw-");
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals(path + " is writable by others", e.getMessage());
        assertEquals("git status\n", Files.readString(path));
    }

    @Test
    void alwaysDoesNotSeedIntoADirectoryOthersCanWrite() throws IOException {
        Path dir = Files.createDirectories(file().path().getParent());
        chmod(dir, "rwxrwxrwx");
        IOException e = assertThrows(IOException.class, () -> file().add(Rule.of("git", "log")));
        assertEquals(dir + " is writable by others", e.getMessage());
        assertTrue(Files.notExists(file().path()));
    }

    @Test
    void seedingAndAppendingMakeAFileThatIsTrusted() throws IOException {
        file().add(Rule.of("git", "status"));
        file().add(Rule.of("git", "log"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file().path())));
        assertEquals("rwx------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(file().path().getParent())));
        assertEquals(AllowFile.Source.FILE, file().load().source());
    }

    @Test
    void aFileOwnedByRootIsTrustedWhenRootReadsIt() throws IOException {
        assumeTrue(currentUid() == 0, "only root owns files as root");
        Path path = write("git status\n");
        assertEquals(0, Files.getAttribute(path, "unix:uid"));
        assertEquals(AllowFile.Source.FILE, file().load().source());
    }

    @Test
    void aFileOwnedByAnotherUserIsNotTrusted() throws IOException {
        // Giving a file away needs root; as anyone else this cannot be set up.
        assumeTrue(currentUid() == 0, "only root can give a file to another user");
        Path path = write("git status\n");
        UserPrincipal nobody = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(path, nobody);
        assertUntrusted(path + " is owned by another user; using built-in defaults");
        Files.setOwner(path, Files.getOwner(home));
        Files.setOwner(path.getParent(), nobody);
        assertUntrusted(path.getParent() + " is owned by another user; using built-in defaults");
    }

    private int currentUid() throws IOException {
        Path probe = Files.createTempFile(home, "uid", "");
        return (Integer) Files.getAttribute(probe, "unix:uid");
    }
}
