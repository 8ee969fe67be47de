package dev.aii.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code make install-files} and {@code make uninstall} under a temporary
 * prefix (the part of {@code make install} after the Maven build), and what
 * the installed aii then does: version, man page, completion, startup cache.
 */
class InstallTest {

    private static final String VERSION_LINE = "aii 0.9.0\n";

    @TempDir
    static Path tmp;
    static Path prefix;
    static Path home;
    /** What make install-files printed. */
    static Run installed;

    @BeforeAll
    static void install() throws IOException {
        assumeTrue(Run.packaged(), "aii-cli is not packaged: run ./mvnw verify");
        assumeTrue(Run.onPath("make"), "make is not installed");
        prefix = tmp.resolve("prefix");
        home = Files.createDirectories(tmp.resolve("home"));
        // Something that was there before: uninstall must leave it.
        Files.createDirectories(prefix.resolve("bin"));
        Files.writeString(prefix.resolve("bin/other-tool"), "#!/bin/sh\n");
        installed = Run.of(Map.of(), "make", "-s", "install-files", "PREFIX=" + prefix).ok();
    }

    @AfterAll
    static void uninstall() {
        if (prefix != null && Files.exists(prefix.resolve("share/aii/installed"))) {
            Run.of(Map.of(), "make", "-s", "uninstall", "PREFIX=" + prefix);
        }
    }

    private static Run aii(Map<String, String> env, String... args) {
        String[] command = Stream.concat(Stream.of(prefix.resolve("bin/aii").toString()), Stream.of(args))
                .toArray(String[]::new);
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("HOME", home.toString());
        return Run.of(all, command);
    }

    @Test
    void theInstalledCommandPrintsItsVersion() {
        Run run = aii(Map.of(), "--version").ok();
        assertEquals(VERSION_LINE, run.out());
        assertEquals("", run.err());
    }

    @Test
    void theInstalledCommandRunsOnTheRecordedJdkWithItsStartupCache() throws IOException {
        assertTrue(Files.size(prefix.resolve("share/aii/aii.aot")) > 0);
        String javaHome = Files.readString(prefix.resolve("share/aii/java-home")).strip();
        assertTrue(Files.isExecutable(Path.of(javaHome, "bin/java")), javaHome);
        Run run = aii(Map.of("AII_JAVA_OPTS", "-Xlog:class+load"), "--help").ok();
        List<String> ours = run.out().lines().filter(l -> l.contains("[class,load] dev.aii.")).toList();
        assertTrue(ours.size() > 10, run.out());
        for (String line : ours) {
            assertTrue(line.contains("source: shared objects file"), "not from the startup cache: " + line);
        }
    }

    @Test
    void manPageIsInstalledAndRenders() throws IOException {
        Path page = prefix.resolve("share/man/man1/aii.1");
        String troff = Files.readString(page);
        assertTrue(troff.contains("\n.TH AII 1 "), troff);
        assertTrue(troff.contains("\n.SH NAME\naii \\- ask a language model on this machine from the command line\n"),
                troff);
        if (Run.onPath("man")) {
            Run man = Run.of(Map.of("MANWIDTH", "100", "MANPAGER", "cat", "PAGER", "cat"),
                    "man", "-l", page.toString()).ok();
            String text = man.out().replaceAll(".\b", "");
            assertTrue(text.contains("aii - ask a language model on this machine from the command line"), text);
            assertTrue(text.contains("--list-allowed"), text);
            assertTrue(text.contains("EXIT STATUS"), text);
        }
    }

    @Test
    void manPageHasEverySectionAndSynopsisLine() {
        assumeTrue(Run.onPath("man"), "man is not installed (man-db)");
        Run man = Run.of(Map.of("MANWIDTH", "80", "MANPAGER", "cat", "PAGER", "cat", "LC_ALL", "C.UTF-8"),
                "man", "-l", prefix.resolve("share/man/man1/aii.1").toString()).ok();
        String text = man.out().replaceAll(".\b", "");
        List<String> sections = text.lines().filter(l -> !l.isEmpty() && Character.isUpperCase(l.charAt(0))
                && l.equals(l.toUpperCase(java.util.Locale.ROOT))).toList();
        assertEquals(List.of("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ARGUMENTS", "EXIT STATUS", "ENVIRONMENT",
                "FILES", "EXAMPLES", "INTERACTIVE MODE", "SEE ALSO"), sections, text);
        assertTrue(text.contains("\nSYNOPSIS\n"
                + "       aii [-ijx] [-f FILE] [--model NAME] [--] [PROMPT...]\n"
                + "       aii -m [-j] [--model NAME]\n"
                + "       aii --list-allowed | --reset-allowed | --version | --help\n"
                + "       aii [-j] --check [--] PROGRAM [ARG...]\n"), text);
        assertTrue(text.contains("\n       --check PROGRAM [ARG\u2026]\n"), text);
        assertTrue(text.contains("\n       --model NAME\n"), text);
        for (String variable : List.of("AII_BASE_URL", "AII_MODEL", "AII_API_KEY", "AII_CONTEXT_SIZE", "AII_TIMEOUT",
                "AII_HISTORY", "AII_SHIM_LIBRARY", "AII_DEBUG", "AII_AUDIT_LOG", "AII_JAVA_OPTS", "JAVA_HOME", "PATH",
                "COLUMNS", "TERM", "HOME")) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith("       " + variable + " ") || l.equals("       " + variable)),
                    variable + " in\n" + text);
        }
        String files = text.substring(text.indexOf("\nFILES\n"), text.indexOf("\nEXAMPLES\n"));
        for (String file : List.of("~/.config/aii/allow", "~/.config/aii/.allow.lock", "~/.config/aii/history")) {
            assertTrue(files.contains("\n       " + file + "\n"), file + " in\n" + files);
        }
        String examples = text.substring(text.indexOf("\nEXAMPLES\n"), text.indexOf("\nINTERACTIVE MODE\n"));
        assertTrue(examples.contains("\n           aii what is the capital of France\n"), examples);
        assertTrue(examples.contains("\n           aii --model llama3.2 -i\n"), examples);
        assertTrue(text.contains("troubleshooting.md"), text);
        assertEquals("", man.err());
    }

    @Test
    void theInstallTellsZshUsersWhatToAddToFpath() throws IOException {
        assumeTrue(Run.onPath("zsh"), "zsh is not installed");
        Path functions = prefix.resolve("share/zsh/site-functions");
        assertTrue(installed.out().contains("aii: zsh does not look for completion in " + functions
                + "; add to ~/.zshrc, before compinit:\naii:   fpath=(" + functions + " $fpath)\n"), installed.out());
        // A zsh whose default function path has the directory: nothing to say.
        Path other = tmp.resolve("on-fpath");
        Path fakeBin = Files.createDirectories(tmp.resolve("fake-zsh"));
        Path zsh = Files.writeString(fakeBin.resolve("zsh"),
                "#!/bin/sh\nprintf '%s\\n' /usr/share/zsh/functions '" + other + "/share/zsh/site-functions'\n");
        Files.setPosixFilePermissions(zsh, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Run quiet = Run.of(Map.of("PATH", fakeBin + ":" + System.getenv("PATH")), "make", "-s", "install-files",
                "PREFIX=" + other).ok();
        Run.of(Map.of(), "make", "-s", "uninstall", "PREFIX=" + other).ok();
        assertTrue(quiet.out().contains("aii: installed " + other + "/bin/aii"), quiet.out());
        assertTrue(!quiet.out().contains("zsh does not look"), quiet.out());
    }

    @Test
    void bashCompletionRegistersAndCompletesFlags() {
        assumeTrue(Run.onPath("bash"), "bash is not installed");
        Path script = prefix.resolve("share/bash-completion/completions/aii");
        Run registered = Run.of(Map.of(), "bash", "-c", "source '" + script + "' && complete -p aii").ok();
        assertEquals("complete -o default -F _complete_aii aii\n", registered.out());
        Run completed = Run.of(Map.of(), "bash", "-c", "source '" + script + "'"
                + " && COMP_WORDS=(aii --li) COMP_CWORD=1 && _complete_aii && printf '%s\\n' \"${COMPREPLY[@]}\"").ok();
        assertEquals("--list-allowed\n", completed.out());
    }

    @Test
    void zshCompletionIsFoundOnTheFunctionPath() {
        assumeTrue(Run.onPath("zsh"), "zsh is not installed");
        Path functions = prefix.resolve("share/zsh/site-functions");
        Run run = Run.of(Map.of("HOME", home.toString()), "zsh", "-f", "-c",
                "fpath=('" + functions + "' $fpath); autoload -U compinit && compinit -u -d '" + home
                        + "/.zcompdump' && print -r -- $_comps[aii]").ok();
        assertEquals("_aii\n", run.out());
    }

    @Test
    void aStaleOrBrokenStartupCacheIsSilentlyIgnored() throws IOException {
        Path cache = prefix.resolve("share/aii/aii.aot");
        Path copy = tmp.resolve("aii.aot.good");
        Files.copy(cache, copy);
        try {
            // A jar newer than the cache: the launcher leaves the cache out.
            Path jar = prefix.resolve("share/aii/lib/aii-cli-0.9.0.jar");
            FileTime was = Files.getLastModifiedTime(jar);
            Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60)));
            Run newer = aii(Map.of(), "--version");
            Files.setLastModifiedTime(jar, was);
            assertEquals(new Run(0, VERSION_LINE, ""), newer);

            // Garbage in the cache: the JVM refuses it, and says nothing about it.
            Files.writeString(cache, "not a cache");
            Files.setLastModifiedTime(cache, FileTime.from(Instant.now().plusSeconds(120)));
            assertEquals(new Run(0, VERSION_LINE, ""), aii(Map.of(), "--version"));
            assertEquals(0, aii(Map.of(), "--list-allowed").status());
        } finally {
            Files.copy(copy, cache, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The startup cache the launcher gave the JVM for this command line, as the JVM reports its flags. */
    private static String cacheFor(String... args) {
        // The JVM's own output goes to stderr, and only when asked for (see bin/aii).
        Run run = aii(Map.of("AII_JAVA_OPTS", "-XX:+DisplayVMOutput -XX:+PrintFlagsFinal",
                "AII_BASE_URL", "http://127.0.0.1:9/v1"), args);
        String line = (run.out() + run.err()).lines().filter(l -> l.matches("\\s*ccstr AOTCache\\s+=.*")).findFirst()
                .orElseThrow(() -> new AssertionError("no AOTCache flag in: " + run.err()));
        String value = line.replaceFirst(".*=\\s*", "").replaceFirst("\\s*\\{.*", "").strip();
        return value.isEmpty() ? "none" : Path.of(value).getFileName().toString();
    }

    @Test
    void theLauncherPicksTheCacheTrainedForTheCommandLineAndFallsBack() throws IOException {
        assertTrue(Files.size(prefix.resolve("share/aii/aii-prompt.aot")) > 0);
        assertEquals("aii.aot", cacheFor("--version"));
        assertEquals("aii.aot", cacheFor("--help"));
        assertEquals("aii.aot", cacheFor("--list-allowed"));
        assertEquals("aii.aot", cacheFor("--check", "ls", "-la"));
        assertEquals("aii.aot", cacheFor("-j", "--check", "git", "status"));
        assertEquals("aii-prompt.aot", cacheFor("hi"));
        assertEquals("aii-prompt.aot", cacheFor("-x", "list", "the", "files"));
        assertEquals("aii-prompt.aot", cacheFor("-m", "llama3.2", "hi"));
        // A prompt that merely mentions the flag is still a prompt.
        assertEquals("aii-prompt.aot", cacheFor("--", "--check"));

        Path prompt = prefix.resolve("share/aii/aii-prompt.aot");
        Path shortOnes = prefix.resolve("share/aii/aii.aot");
        Path promptAside = tmp.resolve("aii-prompt.aot.aside");
        Path shortAside = tmp.resolve("aii.aot.aside");
        Files.move(prompt, promptAside);
        try {
            assertEquals("aii.aot", cacheFor("hi"), "the other cache when this one is missing");
            Files.move(shortOnes, shortAside);
            try {
                assertEquals("none", cacheFor("hi"));
                assertEquals("none", cacheFor("--version"));
                assertEquals(new Run(0, VERSION_LINE, ""), aii(Map.of(), "--version"));
            } finally {
                Files.move(shortAside, shortOnes);
            }
        } finally {
            Files.move(promptAside, prompt);
        }
        // A stale one (a jar newer than it) is passed over for the other.
        Path jar = prefix.resolve("share/aii/lib/aii-cli-0.9.0.jar");
        FileTime was = Files.getLastModifiedTime(jar);
        FileTime cacheTime = Files.getLastModifiedTime(prompt);
        try {
            Files.setLastModifiedTime(prompt, FileTime.from(was.toInstant().minusSeconds(60)));
            assertEquals("aii.aot", cacheFor("hi"));
        } finally {
            Files.setLastModifiedTime(prompt, cacheTime);
        }
        assertEquals("aii-prompt.aot", cacheFor("hi"));
    }

    @Test
    void aStagedInstallWritesOnlyUnderDestdirAndItsFilesNameOnlyThePrefix() throws IOException {
        Path stage = tmp.resolve("stage");
        Path target = tmp.resolve("usr");
        Run staged = Run.of(Map.of(), "make", "-s", "install-files", "PREFIX=" + target, "DESTDIR=" + stage).ok();
        assertFalse(Files.exists(target), "nothing outside DESTDIR");
        assertTrue(staged.out().contains("aii: staged in " + stage + "; once the files are in " + target + ", "
                + target + "/bin/aii --post-install makes the startup caches\n"), staged.out());
        Path root = Path.of(stage + target.toString());
        byte[] destdir = stage.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(stage)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertTrue(file.startsWith(root), file.toString());
                byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i + destdir.length <= bytes.length; i++) {
                    assertFalse(java.util.Arrays.equals(bytes, i, i + destdir.length, destdir, 0, destdir.length),
                            file + " names DESTDIR");
                }
            }
        }
        assertFalse(Files.exists(root.resolve("share/aii/aii.aot")), "no cache made for the stage");
        assertTrue(Files.readString(root.resolve("share/aii/installed")).contains("f " + target + "/bin/aii\n"));

        // As a package manager does: the files into their place, then its post-install step.
        Run.of(Map.of(), "cp", "-R", root.toString(), target.toString()).ok();
        Path share = target.resolve("share/aii");
        assertEquals(new Run(0, "aii: " + share.resolve("aii.aot") + ": made\naii: " + share.resolve("aii-prompt.aot")
                + ": made\n", ""), Run.of(Map.of("HOME", home.toString()), target + "/bin/aii", "--post-install"));
        Run run = Run.of(Map.of("HOME", home.toString(), "AII_JAVA_OPTS", "-Xlog:class+load"), target + "/bin/aii",
                "--version").ok();
        assertTrue(run.out().contains("dev.aii.cli.Main source: shared objects file"), run.out());

        Run.of(Map.of(), "make", "-s", "uninstall", "PREFIX=" + target).ok();
        Run.of(Map.of(), "make", "-s", "uninstall", "PREFIX=" + target, "DESTDIR=" + stage).ok();
        for (Path dir : List.of(target, stage)) {
            try (Stream<Path> left = Files.walk(dir)) {
                assertEquals(List.of(), left.filter(Files::isRegularFile).toList(), "uninstall of " + dir);
            }
        }
    }

    @Test
    void uninstallRemovesExactlyWhatInstallPutThere() throws IOException {
        Path other = tmp.resolve("other-prefix");
        Files.createDirectories(other.resolve("share/man/man1"));
        Files.writeString(other.resolve("share/man/man1/ls.1"), ".TH LS 1\n");
        Run.of(Map.of(), "make", "-s", "install-files", "PREFIX=" + other).ok();
        assertTrue(Files.isExecutable(other.resolve("bin/aii")));
        Run.of(Map.of(), "make", "-s", "uninstall", "PREFIX=" + other).ok();
        try (Stream<Path> left = Files.walk(other)) {
            assertEquals(List.of(other, other.resolve("share"), other.resolve("share/man"),
                            other.resolve("share/man/man1"), other.resolve("share/man/man1/ls.1")),
                    left.sorted().toList());
        }
    }
}
