package dev.aii.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A file system for guard tests: the system programs, a home directory with
 * a few files, devices, a FIFO, and symbolic links (to a terminal, to a
 * process's files, to a directory), resolved the way the kernel would.
 * {@code src/fifo} is a regular file, so that a value read from the top of
 * a work tree ({@code /home/u}) leads to the FIFO there.
 */
public final class FakeDisk implements FileProbe {

    public static final String HOME = "/home/u";

    private final Map<String, Kind> kinds = new HashMap<>();
    private final Map<String, String> links = new HashMap<>();

    public FakeDisk() {
        for (String p : List.of("ls", "cat", "head", "tail", "wc", "date", "whoami", "uname", "df", "du", "stat",
                "file", "which", "ps", "uptime", "sw_vers", "pwd", "git", "sort", "tar", "xxd", "find", "uniq",
                "split", "man", "base64", "less", "more", "diff", "cmp", "comm", "nl", "od", "hexdump", "jq",
                "column", "cut", "paste", "tr", "grep", "rg", "gzip", "gunzip", "printf", "vim", "bsdtar",
                "gtail", "busybox", "sqlite3", "rgrep", "egrep", "fgrep")) {
            kinds.put("/usr/bin/" + p, Kind.REGULAR_FILE);
        }
        for (String d : List.of("/", "/home", HOME, HOME + "/src", "/tmp", "/proc", "/dev", "/dev/pts", "/usr",
                "/usr/bin", "/etc", "/sys", "/proc/4242", "/proc/4242/fd", "/net")) {
            kinds.put(d, Kind.DIRECTORY);
        }
        for (String f : List.of("README.md", "log.txt", "f", "data.txt", "a.tar", "notes.md", "list0",
                "src/main.c", "src/fifo")) {
            kinds.put(HOME + "/" + f, Kind.REGULAR_FILE);
        }
        kinds.put("/etc/passwd", Kind.REGULAR_FILE);
        kinds.put("/proc/cpuinfo", Kind.REGULAR_FILE);
        kinds.put("/proc/4242/environ", Kind.REGULAR_FILE);
        kinds.put("/proc/4242/fd/0", Kind.OTHER);
        for (String dev : List.of("/dev/null", "/dev/zero", "/dev/urandom", "/dev/tty", "/dev/pts/3",
                HOME + "/fifo", HOME + "/sock")) {
            kinds.put(dev, Kind.OTHER);
        }
        links.put("/proc/self", "/proc/4242");
        links.put("/dev/stdin", "/proc/4242/fd/0");
        links.put("/dev/fd", "/proc/4242/fd");
        links.put(HOME + "/term", "/dev/pts/3");
        links.put(HOME + "/env", "/proc/self/environ");
        links.put(HOME + "/up", "/");
        links.put(HOME + "/nul", "/dev/null");
        links.put("/tmp/pts", "/dev/pts");
    }

    public static Environment environment() {
        return new Environment("/usr/bin:/bin", HOME, new FakeDisk());
    }

    @Override
    public boolean isExecutableRegularFile(String absolutePath) {
        return absolutePath.startsWith("/usr/bin/") && kinds.get(absolutePath) == Kind.REGULAR_FILE;
    }

    @Override
    public Target target(String absolutePath) {
        String real = resolve(absolutePath, 0);
        if (real == null) {
            return Target.MISSING;
        }
        Kind kind = kinds.get(real);
        return kind == null ? Target.MISSING : new Target(kind, real);
    }

    /** Resolves component by component, following links, {@code ..} after a link going up from its target. */
    private String resolve(String path, int depth) {
        if (depth > 20) {
            return null;
        }
        String current = "";
        String[] parts = path.split("/");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                current = current.isEmpty() ? "" : current.substring(0, current.lastIndexOf('/'));
                continue;
            }
            String next = current + "/" + part;
            String link = links.get(next);
            if (link != null) {
                String rest = String.join("/", java.util.Arrays.copyOfRange(parts, i + 1, parts.length));
                return resolve(link + (rest.isEmpty() ? "" : "/" + rest), depth + 1);
            }
            if (!kinds.containsKey(next)) {
                return null;
            }
            current = next;
        }
        return current.isEmpty() ? "/" : current;
    }
}
