package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class AllowFileLoadTest {

    static final String DEFAULTS_LISTING = "ls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\nuname\ndf\ndu\nstat\nfile\n"
            + "which\nps\nuptime\nsw_vers\n";

    @TempDir
    Path home;

    private AllowFile file() {
        return AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
    }

    private Path write(String text) throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
        return path;
    }

    @Test
    void theFileIsUnderHomeWhenHomeIsSet() {
        assertEquals(Path.of("/home/someone/.config/aii/allow"), AllowFile.defaultPath(Map.of("HOME", "/home/someone")));
        assertEquals(home.resolve(".config/aii/allow"), file().path());
    }

    @Test
    void withoutHomeTheAccountsHomeDirectoryIsUsed() {
        Path expected = Path.of(System.getProperty("user.home"), ".config", "aii", "allow");
        assertEquals(expected, AllowFile.defaultPath(Map.of()));
        assertEquals(expected, AllowFile.defaultPath(Map.of("HOME", "")));
    }

    @Test
    void noFileGivesTheBuiltInDefaultsAndWritesNothing() throws IOException {
        AllowFile.Loaded loaded = file().load();
        assertEquals(Builtins.defaults(), loaded.rules());
        assertEquals(AllowFile.Source.DEFAULTS_NO_FILE, loaded.source());
        assertEquals(List.of(), loaded.warnings());
        assertEquals("# source: built-in defaults (no config file)\n" + DEFAULTS_LISTING, file().listing(loaded));
        try (var entries = Files.list(home)) {
            assertEquals(List.of(), entries.toList());
        }
    }

    @Test
    void anEmptyFileAllowsNothing() throws IOException {
        Path path = write("");
        AllowFile.Loaded loaded = file().load();
        assertEquals(RuleSet.empty(), loaded.rules());
        assertEquals(AllowFile.Source.FILE, loaded.source());
        assertEquals(List.of(), loaded.warnings());
        assertEquals("# source: " + path + "\n", file().listing(loaded));
        Decision ls = ExecPolicy.of(loaded.rules(), SystemEnvironment.of(Map.of(), home)).evaluate("ls", List.of());
        assertInstanceOf(Decision.Ask.class, ls);
    }

    @Test
    void theListingNeverCarriesARawControlOrFormatCharacter() throws IOException {
        Path path = write("printf '\u001b[2J'\ncat 'a\u202Eb' \u0085x\nls 'it''s'\nprintf 'tab\there'\n");
        AllowFile.Loaded loaded = file().load();
        assertEquals(Rule.of("printf", "\u001b[2J"), loaded.rules().rules().get(0));
        String listing = file().listing(loaded);
        assertEquals("# source: " + path + "\nprintf '\\x1B[2J'\ncat 'a\\u{202E}b' '\\x85x'\nls its\n"
                + "printf 'tab\\x09here'\n", listing);
        assertTrue(listing.codePoints().noneMatch(c -> c != '\n' && (Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT)), listing);
    }

    @Test
    void aFileReplacesTheDefaultsEntirely() throws IOException {
        Path path = write("# mine\n\ngit status\n  'my tool'  \"a b\" c\\ d\r\ngit status\n");
        AllowFile.Loaded loaded = file().load();
        assertEquals(List.of(Rule.of("git", "status"), Rule.of("my tool", "a b", "c d")), loaded.rules().rules());
        assertEquals(List.of(), loaded.warnings());
        assertEquals("# source: " + path + "\ngit status\n'my tool' 'a b' 'c d'\n", file().listing(loaded));
    }

    @Test
    void malformedLinesAreSkippedWithOneWarningEach() throws IOException {
        Path path = write("ls\ngit 'status\n\n# fine\necho \"x\nrm x\\\n'' y\ncat\n");
        AllowFile.Loaded loaded = file().load();
        assertEquals(List.of(Rule.of("ls"), Rule.of("cat")), loaded.rules().rules());
        assertEquals(List.of(
                path + ": skipping malformed line 2",
                path + ": skipping malformed line 5",
                path + ": skipping malformed line 6",
                path + ": skipping malformed line 7"), loaded.warnings());
    }

    private void assertUnreadable(Path path, String reason) {
        AllowFile.Loaded loaded = file().load();
        assertEquals(Builtins.defaults(), loaded.rules());
        assertEquals(AllowFile.Source.DEFAULTS_UNREADABLE_FILE, loaded.source());
        assertEquals(List.of("cannot read " + path + ": " + reason + "; using built-in defaults"), loaded.warnings());
        assertEquals("# source: " + path + "\n" + DEFAULTS_LISTING, file().listing(loaded));
    }

    @Test
    void aDirectoryInPlaceOfTheFileGivesTheDefaultsAndAWarning() throws IOException {
        Path path = file().path();
        Files.createDirectories(path);
        assertUnreadable(path, "Is a directory");
    }

    @Test
    void invalidUtf8GivesTheDefaultsAndAWarningNamingTheLine() throws IOException {
        Path path = write("");
        Files.write(path, new byte[] {'l', 's', '\n', 'c', 'a', (byte) 0xC3, (byte) 0x28, '\n'});
        assertUnreadable(path, "invalid UTF-8 at line 2");
        Files.write(path, new byte[] {(byte) 0xFF, '\n'});
        assertUnreadable(path, "invalid UTF-8 at line 1");
    }

    @Test
    void everyKindOfInvalidUtf8IsFoundOnItsLine() throws IOException {
        Path path = write("");
        String lines = "# ok \u00e9\r\nls\n\ncat \u65e5\n";
        byte[] good = lines.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // Overlong NUL, an encoded surrogate, a lone continuation byte, a sequence cut off at the end.
        byte[][] bad = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0x80},
            {'x', (byte) 0xE6, (byte) 0x97}};
        for (byte[] b : bad) {
            byte[] all = java.util.Arrays.copyOf(good, good.length + b.length);
            System.arraycopy(b, 0, all, good.length, b.length);
            Files.write(path, all);
            assertUnreadable(path, "invalid UTF-8 at line 5");
        }
        Files.write(path, good);
        assertEquals(AllowFile.Source.FILE, file().load().source());
    }

    @Test
    @Timeout(10)
    void aFifoInPlaceOfTheFileGivesTheDefaultsAndAWarningWithoutWaitingForAWriter() throws Exception {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        assertUnreadable(path, "not a regular file");
    }

    @Test
    @Timeout(10)
    void aFileLargerThanAMebibyteGivesTheDefaultsAndAWarning() throws IOException {
        Path path = write("ls\n");
        try (RandomAccessFile sparse = new RandomAccessFile(path.toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }
        assertUnreadable(path, "larger than 1048576 bytes");
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(AllowFileBytes.MAX_BYTES);
        }
        assertEquals(AllowFile.Source.FILE, file().load().source());
    }

    @Test
    @Timeout(10)
    void aLinkToAnEndlessDeviceGivesTheDefaultsAndAWarning() throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Files.createSymbolicLink(path, Path.of("/dev/zero"));
        AllowFile.Loaded loaded = file().load();
        assertEquals(Builtins.defaults(), loaded.rules());
        // /dev/zero is writable by all: the trust check says so before anything tries to read it.
        assertEquals(List.of(path + " is writable by others; using built-in defaults"), loaded.warnings());
        Files.delete(path);
    }

    @Test
    void aSymbolicLinkLoopGivesTheDefaultsAndAWarning() throws IOException {
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Files.createSymbolicLink(path, path.resolveSibling("other"));
        Files.createSymbolicLink(path.resolveSibling("other"), path);
        assertUnreadable(path, "Too many levels of symbolic links");
    }

    @Test
    void aDanglingSymbolicLinkIsReportedNotTakenForNoFile() throws IOException {
        // The user keeps the file elsewhere (dotfiles) and that copy is gone: say so, rather than silently
        // running on the defaults and letting the next "always" replace the link.
        Path path = file().path();
        Files.createDirectories(path.getParent());
        Files.createSymbolicLink(path, home.resolve("dotfiles/allow"));
        assertUnreadable(path, "a symbolic link to a missing file");
    }

    /**
     * Root reads any file, so when the tests run as root the check runs in a
     * child JVM that is still root but has lost the capabilities that bypass
     * file permissions.
     */
    private List<String> loadInAProcessBoundByPermissions(Path path) throws Exception {
        int uid = (Integer) Files.getAttribute(home, "unix:uid");
        List<String> prefix = uid == 0
                ? List.of("setpriv", "--bounding-set", "-dac_override,-dac_read_search")
                : List.of();
        Process child = ChildJvm.start(prefix, "load", path.toString());
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM finished within 60 s");
        assertEquals(0, child.exitValue(), out);
        return out.lines().toList();
    }

    @Test
    void aFileWithoutReadPermissionGivesTheDefaultsAndAWarning() throws Exception {
        Path path = write("git status\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("---------"));
        assertEquals(List.of("DEFAULTS_UNREADABLE_FILE",
                        "cannot read " + path + ": Permission denied; using built-in defaults"),
                loadInAProcessBoundByPermissions(path));
    }

    @Test
    void aDirectoryWithoutSearchPermissionGivesTheDefaultsAndAWarning() throws Exception {
        Path path = write("git status\n");
        Files.setPosixFilePermissions(path.getParent(), PosixFilePermissions.fromString("---------"));
        try {
            assertEquals(List.of("DEFAULTS_UNREADABLE_FILE",
                            "cannot read " + path + ": Permission denied; using built-in defaults"),
                    loadInAProcessBoundByPermissions(path));
        } finally {
            Files.setPosixFilePermissions(path.getParent(), PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void theChildSeesAReadableFileAsTheParentDoes() throws Exception {
        Path path = write("git status\nls '\n");
        assertEquals(List.of("FILE", path + ": skipping malformed line 2"), loadInAProcessBoundByPermissions(path));
    }
}
