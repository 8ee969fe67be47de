package dev.aii.policy.guard;

/** Lexical path arithmetic: no file system access, symbolic links not followed. */
public final class PathNames {

    private PathNames() {
    }

    /**
     * Makes {@code path} absolute against {@code base} (when relative) and
     * normalises it: empty and {@code .} segments dropped, {@code ..} pops one
     * segment, never above {@code /}.
     */
    public static String normalize(String base, String path) {
        String joined = path.startsWith("/") ? path : base + "/" + path;
        if (isNormal(joined)) {
            return joined;
        }
        // One pass: "/segment" appended for each segment kept, and taken back off for "..".
        StringBuilder out = new StringBuilder(joined.length());
        int n = joined.length();
        int i = 0;
        while (i < n) {
            while (i < n && joined.charAt(i) == '/') {
                i++;
            }
            int start = i;
            while (i < n && joined.charAt(i) != '/') {
                i++;
            }
            int length = i - start;
            if (length == 0 || (length == 1 && joined.charAt(start) == '.')) {
                continue;
            }
            if (length == 2 && joined.charAt(start) == '.' && joined.charAt(start + 1) == '.') {
                out.setLength(Math.max(0, out.lastIndexOf("/")));
                continue;
            }
            out.append('/').append(joined, start, i);
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    /** Whether {@code path} is already what {@link #normalize} makes of it: absolute, no empty, {@code .} or {@code ..} segment. */
    private static boolean isNormal(String path) {
        int n = path.length();
        if (n == 0 || path.charAt(0) != '/') {
            return false;
        }
        if (n == 1) {
            return true;
        }
        int start = 1;
        for (int i = 1; i <= n; i++) {
            if (i == n || path.charAt(i) == '/') {
                int length = i - start;
                if (length == 0 || (length == 1 && path.charAt(start) == '.')
                        || (length == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.')) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }

    /** The last component of a normalised absolute path ({@code ""} for {@code /}). */
    public static String lastComponent(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The parent directory of a normalised absolute path ({@code /} for {@code /x}). */
    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
