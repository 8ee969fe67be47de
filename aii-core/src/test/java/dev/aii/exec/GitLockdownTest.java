package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile repository: its configuration makes git run a program that
 * leaves a marker file through every route a read-only command takes
 * (fsmonitor, pager, external diff, a diff driver's command, textconv, clean
 * and smudge filters, a long-running filter process, hooks). Run by aii
 * because a rule matched, {@code git status}, {@code git diff} and
 * {@code git log -p} leave no marker; run plainly, the same commands do, so
 * the repository is hostile indeed.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GitLockdownTest {

    @TempDir
    Path dir;
    Path repo;
    /** A second repository for the long-running filter, whose failure would end the first one's commands. */
    Path processRepo;
    Path markers;

    @BeforeEach
    void hostileRepositories() throws Exception {
        markers = Files.createDirectory(dir.resolve("markers"));
        processRepo = Files.createDirectory(dir.resolve("process"));
        repo = processRepo;
        git("init", "-q");
        git("config", "user.email", "a@example.com");
        git("config", "user.name", "a");
        Files.writeString(repo.resolve("h.dat"), "three\n");
        git("add", "h.dat");
        git("commit", "-qm", "one");
        Files.writeString(repo.resolve("h.dat"), "three\nmore\n");
        Files.writeString(repo.resolve(".gitattributes"), "*.dat filter=proc\n");
        repo = Files.createDirectory(dir.resolve("repo"));
        Path evil = dir.resolve("evil.sh");
        Files.writeString(evil, "#!/bin/sh\ntouch \"" + markers + "/$1\"\nshift\n[ \"$1\" = cat ] && exec cat \"$2\"\n"
                + "[ \"$1\" = in ] && exec cat\nexit 0\n");
        Files.setPosixFilePermissions(evil, PosixFilePermissions.fromString("rwx------"));
        git("init", "-q");
        git("config", "user.email", "a@example.com");
        git("config", "user.name", "a");
        Files.writeString(repo.resolve("f.txt"), "one\n");
        Files.writeString(repo.resolve("g.bin"), "two\n");
        git("add", "f.txt", "g.bin");
        git("commit", "-qm", "one");
        Files.writeString(repo.resolve("f.txt"), "one\nmore\n");
        Files.writeString(repo.resolve("g.bin"), "two\nmore\n");
        Files.writeString(repo.resolve(".gitattributes"), "*.txt diff=evil filter=evil\n*.bin diff=cmd\n");
        String e = evil.toString();
        git("config", "core.fsmonitor", e + " fsmonitor");
        git("config", "core.pager", e + " pager in");
        git("config", "pager.log", e + " pagerlog in");
        git("config", "diff.external", e + " external");
        git("config", "diff.cmd.command", e + " drivercommand");
        git("config", "diff.evil.textconv", e + " textconv cat");
        git("config", "filter.evil.clean", e + " clean in");
        git("config", "filter.evil.smudge", e + " smudge in");
        Path main = repo;
        repo = processRepo;
        git("config", "filter.proc.process", e + " process");
        git("config", "core.fsmonitor", e + " fsmonitor2");
        repo = main;
        git("config", "log.showSignature", "true");
        git("config", "gpg.program", e + " gpg");
        Path hooks = Files.createDirectories(repo.resolve(".git/hooks"));
        for (String hook : List.of("post-index-change", "post-checkout", "reference-transaction")) {
            Path h = hooks.resolve(hook);
            Files.writeString(h, "#!/bin/sh\ntouch \"" + markers + "/hook-" + hook + "\"\n");
            Files.setPosixFilePermissions(h, PosixFilePermissions.fromString("rwx------"));
        }
        // Fresh timestamps, so that status has to look at the files again (and would run the clean filter).
        Files.setLastModifiedTime(repo.resolve("f.txt"), java.nio.file.attribute.FileTime.fromMillis(
                System.currentTimeMillis() + 5000));
        clearMarkers();
    }

    private static final List<List<String>> COMMANDS = List.of(
            List.of("status"), List.of("status", "--short"), List.of("diff"), List.of("log", "-p"),
            List.of("diff", "HEAD"), List.of("show"), List.of("blame", "f.txt"));

    @Test
    void runPlainlyTheRepositoryRunsItsPrograms() throws Exception {
        ProcessBuilderRunner runner = new ProcessBuilderRunner();
        List<String> all = new ArrayList<>();
        for (Path r : List.of(repo, processRepo)) {
            for (List<String> command : COMMANDS) {
                List<String> args = new ArrayList<>(List.of("-C", r.toString()));
                args.addAll(command);
                runner.run(git(), args, Limits.DEFAULT, new Cancellation());
                all.addAll(markers());
            }
        }
        assertTrue(all.containsAll(List.of("fsmonitor", "drivercommand", "textconv", "clean", "smudge", "process",
                "hook-post-index-change")),
                () -> "the repository must be hostile: " + all);
    }

    @Test
    void underARuleNoCommandRunsWhatTheRepositoryNames() throws Exception {
        RuleSet rules = RuleSet.of(List.of(dev.aii.policy.Rule.of("git")));
        ToolFixture f = new ToolFixture(rules, FakeTerminal.absent(), null, Limits.DEFAULT, false,
                ReportedGitVersion.newEnough());
        for (Path r : List.of(repo, processRepo)) {
            for (List<String> command : COMMANDS) {
                List<String> args = new ArrayList<>(List.of("-C", r.toString()));
                args.addAll(command);
                f.nextAnswer();
                String result = f.call("git", args.toArray(String[]::new));
                // This repository names diff programs: the commands that show diffs ask, the others run.
                boolean diffs = GitLockdown.DIFFS.contains(command.getFirst()) && r.equals(repo);
                assertTrue(diffs ? result.equals(ToolTexts.DENIED_NO_TERMINAL) : result.startsWith("exit "),
                        () -> command + ": " + result);
                assertEquals(List.of(), markers(), () -> "git " + command + " ran: " + result);
            }
        }
    }

    @Test
    void aDiffWhereTheRepositoryNamesATextConversionAsks() throws IOException {
        FakeTerminal terminal = FakeTerminal.answering("n");
        ToolFixture f = new ToolFixture(RuleSet.of(List.of(dev.aii.policy.Rule.of("git"))), terminal,
                null, Limits.DEFAULT, false, ReportedGitVersion.newEnough());
        assertEquals(ToolTexts.DENIED_BY_USER, f.call("git", "-C", repo.toString(), "log", "-p", "--", "f.txt"));
        assertTrue(terminal.prompts().getFirst().contains("  note: the configuration names a program for git's diffs ("),
                terminal.prompts()::toString);
        assertEquals(List.of(), markers());
    }

    @Test
    void theUsersOwnGitConfigCountIsKept() {
        Map<String, String> env = GitLockdown.with(GitLockdown.CONFIG, Map.of("GIT_CONFIG_COUNT", "2"));
        assertEquals("core.fsmonitor", env.get("GIT_CONFIG_KEY_2"));
        assertEquals(Integer.toString(2 + GitLockdown.CONFIG.size()), env.get("GIT_CONFIG_COUNT"));
        assertFalse(env.containsKey("GIT_CONFIG_KEY_0"));
    }

    @Test
    void theQuestionAsksAboutTheSameRepository() {
        assertEquals(List.of("-C", "/r", "--git-dir=/g", "--work-tree", "/w", "-c", "a.b=c"),
                GitLockdown.globalOptions(List.of("-C", "/r", "--git-dir=/g", "--work-tree", "/w", "-c", "a.b=c",
                        "log", "-C", "x")));
    }

    private List<String> markers() throws IOException {
        try (Stream<Path> s = Files.list(markers)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void clearMarkers() throws IOException {
        try (Stream<Path> s = Files.list(markers)) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
    }

    private static String git() {
        for (String d : List.of("/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin")) {
            if (Files.isExecutable(Path.of(d, "git"))) {
                return d + "/git";
            }
        }
        throw new IllegalStateException("these tests need git in a system directory");
    }

    private void git(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(git(), "-C", repo.toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(argv + ": " + out);
        }
    }
}
