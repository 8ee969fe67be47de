package dev.aii.policy.guard;

import dev.aii.policy.Environment;
import dev.aii.policy.FileProbe;
import dev.aii.policy.Render;
import java.util.ArrayList;
import java.util.List;

/**
 * The operand guard: an argument or option value that names something other
 * than a regular file or a directory ({@code /dev/null} excepted), or a path
 * whose meaning in the command is not what aii sees (a process's files under
 * {@code /proc} and {@code /dev/fd}, the standard streams, the {@code /net}
 * automounter), makes the command ask.
 *
 * <p>The special trees are checked on the lexical path before the file system
 * is asked anything, so that probing {@code /net/HOST} does not itself make
 * the network lookup; then on the real path, so that a symbolic link or a
 * {@code ..} after one cannot lead there unseen.
 */
final class PathGuard {

    /** Directories whose every entry is guarded (the directory itself too). */
    private static final List<String> TREES = List.of(
            "/dev/fd", "/proc/self", "/proc/thread-self", "/dev/stdin", "/dev/stdout", "/dev/stderr",
            "/proc/kmsg", "/sys/kernel/debug", "/sys/kernel/tracing");

    /**
     * Directories that a recursive reader must not start from: reading every
     * file below them reaches processes' environments or devices.
     */
    private static final List<String> RECURSION_ROOTS = List.of("/", "/proc", "/dev", "/sys", "/net");

    private PathGuard() {
    }

    /** Adds a hit for every candidate in {@code hits} that the guard does not let through. */
    static void check(Environment env, GuardHits hits) {
        for (GuardHits.Candidate c : hits.candidates()) {
            String reason = reason(env, hits.program(), c);
            if (reason != null) {
                hits.hit(c.index(), reason);
            }
        }
    }

    /**
     * Why {@code c} is guarded, or null when it is not: from every base the
     * program may resolve it from (the first is where it is read as
     * written), it must not lead anywhere guarded; and a path value must
     * exist as written.
     */
    private static String reason(Environment env, String program, GuardHits.Candidate c) {
        List<String> bases = bases(env, c);
        for (int i = 0; i < bases.size(); i++) {
            String base = bases.get(i);
            String reason = reasonFrom(env, c, base, i == 0 ? null : base);
            if (reason != null) {
                return reason;
            }
            if (i == 0 && c.read() != null
                    && env.probe().target(asWritten(base, c.path())).kind() == FileProbe.Kind.MISSING) {
                return shown(c) + " does not exist, so aii cannot tell what " + program + " would read";
            }
        }
        return null;
    }

    /**
     * The directories {@code c} may be resolved from, the one it is read
     * from as written first: its base; for a value read from the top of a
     * work tree also every directory above the base (the top is one of them)
     * and the work trees named outright.
     */
    static List<String> bases(Environment env, GuardHits.Candidate c) {
        String base = c.base().isEmpty() ? env.workingDirectory() : PathNames.normalize(env.workingDirectory(),
                c.base());
        if (c.path().startsWith("/") || c.read() == null || c.read().kind() != PathValue.Kind.FROM_TOP) {
            return List.of(base);
        }
        List<String> out = new ArrayList<>();
        for (String dir = base; ; dir = PathNames.parent(dir)) {
            out.add(dir);
            if (dir.equals("/")) {
                break;
            }
        }
        for (String top : c.tops()) {
            out.add(PathNames.normalize(base, top));
        }
        return out;
    }

    private static String asWritten(String base, String path) {
        return path.startsWith("/") ? path : base.equals("/") ? "/" + path : base + "/" + path;
    }

    /** Why {@code c} resolved from {@code base} is guarded, or null; {@code from} names a base other than the first. */
    private static String reasonFrom(Environment env, GuardHits.Candidate c, String base, String from) {
        String lexical = PathNames.normalize(base, c.path());
        String tree = specialTree(lexical);
        String seen = from == null ? "" : " (read from " + Render.render(List.of(from)) + ")";
        if (tree != null) {
            return shown(c) + seen + " is under " + tree;
        }
        if (c.recursive() && RECURSION_ROOTS.contains(lexical)) {
            return "reading every file below " + shown(c) + " reaches other processes' files";
        }
        FileProbe.Target target = env.probe().target(asWritten(base, c.path()));
        if (target.kind() == FileProbe.Kind.MISSING) {
            return null;
        }
        String real = target.realPath();
        String realTree = specialTree(real);
        if (realTree != null) {
            return shown(c) + seen + " is under " + realTree + leads(real, lexical);
        }
        if (target.kind() == FileProbe.Kind.OTHER && !real.equals("/dev/null")) {
            return shown(c) + seen + " is not a regular file or directory" + leads(real, lexical);
        }
        if (c.below() == GuardHits.Below.FOLLOWED && target.kind() == FileProbe.Kind.DIRECTORY) {
            return shown(c) + seen + " is a directory, whose files the program reads through their links";
        }
        if (c.recursive() && target.kind() == FileProbe.Kind.DIRECTORY && RECURSION_ROOTS.contains(real)) {
            return "reading every file below " + shown(c) + " reaches other processes' files" + leads(real, lexical);
        }
        return null;
    }

    // Rendered only for a reason that is given: most candidates pass, and rendering is the dearest step.
    private static String shown(GuardHits.Candidate c) {
        return Render.render(List.of(c.path()));
    }

    private static String leads(String real, String lexical) {
        return real.equals(lexical) ? "" : " (it leads to " + Render.render(List.of(real)) + ")";
    }

    /**
     * The special tree {@code path} (absolute, normalised) is in, as a note
     * names it, or null. Compared without regard to ASCII case: on macOS's
     * usual file system {@code /NET/host} is {@code /net/host}.
     */
    static String specialTree(String spelled) {
        String path = spelled.toLowerCase(java.util.Locale.ROOT);
        for (String tree : TREES) {
            if (path.startsWith(tree) && (path.length() == tree.length() || path.charAt(tree.length()) == '/')) {
                return tree + (tree.startsWith("/dev/std") ? "" : "/");
            }
        }
        if (path.startsWith("/net/")) {
            return "/net/";
        }
        if (path.startsWith("/proc/")) {
            int end = path.indexOf('/', 6);
            String pid = end < 0 ? path.substring(6) : path.substring(6, end);
            if (!pid.isEmpty() && pid.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                return "/proc/<pid>/";
            }
        }
        return null;
    }
}
