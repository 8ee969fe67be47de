package dev.aii.policy;

import java.util.ArrayDeque;
import java.util.Deque;

/** Lexical path arithmetic: no file system access, symbolic links not followed. */
final class PathNames {

    private PathNames() {
    }

    /**
     * Makes {@code path} absolute against {@code base} (when relative) and
     * normalises it: empty and {@code .} segments dropped, {@code ..} pops one
     * segment, never above {@code /}.
     */
    static String normalize(String base, String path) {
        String joined = path.startsWith("/") ? path : base + "/" + path;
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : joined.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                segments.pollLast();
            } else {
                segments.addLast(segment);
            }
        }
        return "/" + String.join("/", segments);
    }

    /** The last component of a normalised absolute path ({@code ""} for {@code /}). */
    static String lastComponent(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The parent directory of a normalised absolute path ({@code /} for {@code /x}). */
    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
