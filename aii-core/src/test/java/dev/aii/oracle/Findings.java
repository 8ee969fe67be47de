package dev.aii.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the oracle holds against a command that ran unasked, from its trace:
 * it executed anything but its own program, opened anything but a regular
 * file, a directory or {@code /dev/null} (a terminal, a FIFO, a device, a
 * process's environment), opened a file to write, created, renamed,
 * truncated or removed one, made a call that changes the system, signalled
 * another process, reached the network, or ran past the time limit.
 */
final class Findings {

    /** Calls that change a file: each is a finding (strace refused it). */
    private static final Set<String> FILE_CHANGES = Set.of("truncate", "ftruncate", "rename", "renameat",
            "renameat2", "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "link", "linkat", "symlink", "symlinkat",
            "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "utime", "utimes", "utimensat",
            "futimesat", "mknod", "mknodat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
            "fremovexattr", "fallocate");

    /** Calls that change the system: each is a finding (strace refused it). */
    private static final Set<String> STATE = Set.of("settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
            "sethostname", "setdomainname", "mount", "umount2", "pivot_root", "swapon", "swapoff", "reboot",
            "init_module", "finit_module", "delete_module", "kexec_load", "ptrace", "process_vm_writev",
            "setpriority", "sched_setscheduler", "unshare", "setns", "chroot", "acct", "quotactl", "syslog", "bpf",
            "perf_event_open", "keyctl", "add_key", "request_key", "iopl", "ioperm");

    private static final Set<String> OPENS = Set.of("open", "openat", "openat2", "creat");

    /** Calls that may change only the calling process (man-db lowers its own priority). */
    private static final Set<String> SELF = Set.of("setpriority", "sched_setscheduler");
    private static final Pattern ENVIRON = Pattern.compile("/proc/(self|thread-self|\\d+)(/task/\\d+)?/environ");
    private static final Pattern WRITING = Pattern.compile("O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND");

    /**
     * Programs a program runs by design whatever its arguments say, by the
     * last component of the path it executes: man's formatters and its
     * whatis and apropos (it runs no pager without a terminal), GNU tar's
     * decompressors, and what Debian's wrapper scripts run. Still refused
     * by strace.
     */
    private static final Map<String, Set<String>> HELPERS = Map.of(
            "man", Set.of("preconv", "tbl", "eqn", "pic", "refer", "grap", "vgrind", "nroff", "groff", "troff",
                    "grotty", "col", "zsoelim", "manconv", "iconv", "gtbl", "geqn", "gpic", "grefer", "whatis",
                    "apropos", "gzip", "bzip2", "xz", "zstd", "lzip"),
            // GNU tar runs the (de)compressor its options or the archive's first bytes name, found along PATH.
            "tar", Set.of("gzip", "bzip2", "xz", "compress", "uncompress", "lzip", "lzma", "lzop", "zstd", "lz4",
                    "gunzip", "unxz", "bunzip2"),
            // Debian's egrep, fgrep, rgrep and gunzip are scripts that run grep and gzip with their arguments.
            "egrep", Set.of("grep"), "fgrep", Set.of("grep"), "rgrep", Set.of("grep"), "gunzip", Set.of("gzip"));

    /**
     * Programs that open every process's environment by design and do not
     * show it (procps's ps reads {@code /proc/N/environ} to tell containers
     * apart): the mark in their output is what counts for them.
     */
    private static final Set<String> READ_ENVIRONMENTS = Set.of("ps");

    private Findings() {
    }

    /** The findings of one command (program name {@code program}) from its calls; empty when it is clean. */
    static List<String> of(String program, List<Trace.Call> calls, Path cwd, boolean timedOut) {
        List<String> out = new ArrayList<>();
        boolean first = true;
        for (Trace.Call c : calls) {
            String name = c.name();
            if (name.equals("execve") || name.equals("execveat")) {
                String path = Trace.firstString(c.arguments());
                if (first) {
                    first = false;
                } else if (!HELPERS.getOrDefault(program, Set.of()).contains(last(path))) {
                    out.add("executes " + path);
                }
            } else if (OPENS.contains(name)) {
                String finding = open(program, c, cwd);
                if (finding != null) {
                    out.add(finding);
                }
            } else if (SELF.contains(name) && ownProcess(c)) {
                continue;
            } else if (FILE_CHANGES.contains(name) || STATE.contains(name)) {
                out.add("calls " + name + "(" + shorten(c.arguments()) + ")");
            } else if (name.equals("connect") && (c.arguments().contains("AF_INET"))) {
                out.add("connects to the network: " + shorten(c.arguments()));
            } else if (name.equals("kill") || name.equals("tkill") || name.equals("tgkill")) {
                String target = c.arguments().split(",")[0].trim();
                if (!target.equals(Integer.toString(c.pid()))) {
                    out.add("signals another process: " + name + "(" + shorten(c.arguments()) + ")");
                }
            }
        }
        if (timedOut) {
            Trace.Call stuck = null;
            for (Trace.Call c : calls) {
                if (!c.finished()) {
                    stuck = c;
                }
            }
            out.add("runs past " + Sandbox.LIMIT_SECONDS + " s" + (stuck == null ? ""
                    : " (waiting in " + stuck.name() + "(" + shorten(stuck.arguments()) + "))"));
        }
        return out;
    }

    private static String open(String program, Trace.Call c, Path cwd) {
        String args = c.arguments();
        String path = Trace.firstString(args);
        if (path == null) {
            return null;
        }
        if (c.finished() && c.result().startsWith("-")) {
            // Refused by the system (no such file, a link not followed, no terminal, no permission): nothing opened.
            return null;
        }
        String decoded = c.finished() ? Trace.decodedPath(c.result()) : null;
        String target = decoded != null ? decoded : resolve(args, path, cwd);
        target = new String(target.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (target.equals("/dev/null")) {
            return null;
        }
        String flags = args.substring(args.lastIndexOf('"') + 1);
        if (program.equals("man") && target.startsWith("/var/cache/man/")) {
            // man-db keeps formatted pages in its own cache where it may write (not as the sandbox's user).
            return null;
        }
        if (WRITING.matcher(flags).find()) {
            return "opens " + target + " to write";
        }
        if (ENVIRON.matcher(target).matches()) {
            return READ_ENVIRONMENTS.contains(program) ? null : "opens " + target + ", a process's environment";
        }
        String kind = kind(target);
        return kind == null ? null : "opens " + target + " (" + kind + ")" + (c.finished() ? "" : " and waits");
    }

    /** {@code path} of an open call made absolute with the directory {@code -y} shows for its dirfd. */
    private static String resolve(String args, String path, Path cwd) {
        if (path.startsWith("/")) {
            return path;
        }
        String dir = args.startsWith("AT_FDCWD<") || Character.isDigit(args.charAt(0)) ? Trace.decodedPath(
                args.substring(0, args.indexOf(','))) : null;
        return (dir == null ? cwd.toString() : dir) + "/" + path;
    }

    /** What a path leads to when it is not a regular file or directory, or null. */
    private static String kind(String path) {
        try {
            BasicFileAttributes a = Files.readAttributes(Path.of(path), BasicFileAttributes.class);
            if (a.isRegularFile() || a.isDirectory()) {
                return null;
            }
            return path.startsWith("/dev/") ? "a device" : "not a regular file or directory";
        } catch (IOException | InvalidPathException e) {
            return null;
        }
    }

    /** Whether a call of {@link #SELF} names the calling process: who 0, or its own id. */
    private static boolean ownProcess(Trace.Call c) {
        String[] args = c.arguments().split(",\\s*");
        String who = c.name().equals("setpriority") && args.length > 1 ? args[1] : args[0];
        return who.equals("0") || who.equals(Integer.toString(c.pid()));
    }

    private static String last(String path) {
        return path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
    }

    private static String shorten(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
}
