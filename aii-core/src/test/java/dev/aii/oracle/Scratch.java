package dev.aii.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The oracle's scratch directory: ordinary files and directories, a FIFO,
 * links to a pseudo-terminal, a device and a process's environment, files
 * named like options, and a git repository whose configuration names a
 * program through every route a read-only git command takes (so that any
 * of them running shows as an execve), with a subdirectory to run git from.
 */
final class Scratch {

    final Path root;
    final Path repo;
    final Path repoSub;
    final Path home;
    final String pty;

    private Scratch(Path root, String pty) {
        this.root = root;
        this.repo = root.resolve("repo");
        this.repoSub = repo.resolve("sub");
        this.home = root.resolve("home");
        this.pty = pty;
    }

    /** Builds the tree in {@code root} (which must be empty), linking {@code pty} as {@code tty}. */
    static Scratch build(Path root, String pty) throws IOException, InterruptedException {
        Scratch s = new Scratch(root, pty);
        s.files();
        s.repository();
        return s;
    }

    private void files() throws IOException, InterruptedException {
        Files.createDirectories(root.resolve("sub/deeper"));
        Files.createDirectories(home);
        write("a.txt", "alpha\nbeta\ngamma\nalpha\n");
        write("b.txt", "beta\ndelta\n");
        write("sub/c.txt", "c\n");
        write("data.json", "{\"k\": [1, 2, 3]}\n");
        write("notes.md", "# notes\n");
        write("list0", "a.txt\0b.txt\0");
        write("magic", "0 string alpha alpha text\n");
        write("page.1", ".TH PAGE 1\n.SH NAME\npage \\- a page\n");
        write("a.tar", "");
        write("-f", "a file named like an option\n");
        write("--output=x", "another\n");
        write("-n", "and another\n");
        run(List.of("mkfifo", root.resolve("fifo").toString()));
        Files.createSymbolicLink(root.resolve("tty"), Path.of(pty));
        Files.createSymbolicLink(root.resolve("zero"), Path.of("/dev/zero"));
        Files.createSymbolicLink(root.resolve("env"), Path.of("/proc/self/environ"));
        Files.createSymbolicLink(root.resolve("up"), Path.of("/"));
        Files.createSymbolicLink(root.resolve("nul"), Path.of("/dev/null"));
        run(List.of("tar", "-cf", root.resolve("a.tar").toString(), "-C", root.toString(), "a.txt", "b.txt"));
    }

    private void repository() throws IOException, InterruptedException {
        Files.createDirectories(repoSub);
        Path evil = root.resolve("evil");
        Files.writeString(evil, "#!/bin/sh\nexit 0\n");
        evil.toFile().setExecutable(true);
        git("init", "-q", "-b", "main");
        git("config", "user.email", "o@example.com");
        git("config", "user.name", "o");
        Files.writeString(repo.resolve("f.txt"), "one\n");
        Files.writeString(repo.resolve("g.bin"), "two\n");
        Files.writeString(repoSub.resolve("h.txt"), "three\n");
        Files.writeString(repo.resolve(".git-blame-ignore-revs"), "");
        git("add", "f.txt", "g.bin", "sub/h.txt", ".git-blame-ignore-revs");
        git("commit", "-qm", "one");
        Files.writeString(repo.resolve("f.txt"), "one\nmore\n");
        git("commit", "-qam", "two");
        git("tag", "v1");
        Files.writeString(repo.resolve("f.txt"), "one\nmore\nagain\n");
        Files.writeString(repo.resolve(".gitattributes"), "*.txt diff=evil filter=evil\n*.bin diff=cmd\n");
        String e = evil.toString();
        for (Map.Entry<String, String> c : Map.of("core.fsmonitor", e, "core.pager", e, "pager.log", e,
                "diff.external", e, "diff.cmd.command", e, "diff.evil.textconv", e, "filter.evil.clean", e,
                "filter.evil.smudge", e, "gpg.program", e, "core.sshCommand", e).entrySet()) {
            git("config", c.getKey(), c.getValue());
        }
        run(List.of("mkfifo", repo.resolve("fifo").toString()));
        Files.createSymbolicLink(repo.resolve("tty"), Path.of(pty));
    }

    private void write(String name, String content) throws IOException {
        Files.writeString(root.resolve(name), content, StandardCharsets.UTF_8);
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("git", "-C", repo.toString()));
        argv.addAll(List.of(args));
        run(argv);
    }

    static void run(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(argv + " failed: " + out);
        }
    }

    /**
     * The values arguments are drawn from, as strings a model could send:
     * existing files and directories, a FIFO, the terminal (by its name and
     * by a link), devices, a process's environment and files, lists of paths
     * with a terminal or device in them, {@code ..} paths that lead
     * somewhere only from the top of the repository, names that look like
     * options, paths that do not exist, and plain words.
     */
    List<String> values() {
        String abs = root.toString();
        return List.of("a.txt", "b.txt", "sub", "sub/c.txt", "data.json", "notes.md", "list0", "magic", "page.1",
                "a.tar", ".", "..", abs + "/a.txt", abs, "/etc/passwd", "/dev/null", "nul",
                "fifo", abs + "/fifo", "tty", pty, "zero", "/dev/zero", "/dev/urandom", "env", "/proc/self/environ",
                "/proc/1/environ", "/proc/self/fd/0", "/dev/stdin", "/dev/fd/0", "/dev/tty", "up", "/", "/proc",
                "/dev", "/sys",
                "a.txt:tty", "a.txt:fifo", "magic:" + pty, "a.txt,/dev/zero", ":a.txt", "a.txt::zero",
                "sub/../../fifo", "../fifo", "../../fifo", "sub/../tty", "../tty", "sub/../../../dev/zero",
                "-f", "--output=x", "-n", "nope", "nope/x", "sub/nope",
                "x", "HEAD", "HEAD~1", "main", "v1", "HEAD:f.txt", "f.txt", "sub/h.txt", "g.bin", "+%s",
                "2030-01-01", "10", "-1", "0", "1", "pid,comm", "%s", ".*", "alpha", "root", "k", ".k", "all",
                "diff", "none", "log", "short", "never", "always");
    }
}
