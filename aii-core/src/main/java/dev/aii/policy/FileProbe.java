package dev.aii.policy;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * The policy's only view of the file system, so that decisions stay pure
 * and testable: whether a path is a program that can run, and what an
 * argument that names a path leads to.
 */
public interface FileProbe {

    /**
     * Whether {@code absolutePath} names a regular file (symbolic links
     * followed) that the current user may execute.
     */
    boolean isExecutableRegularFile(String absolutePath);

    /**
     * What {@code absolutePath} leads to, symbolic links and {@code ..}
     * resolved as the kernel resolves them (not lexically): its kind and its
     * real path. A path that does not exist, or that this user cannot reach,
     * is {@link Kind#MISSING}.
     *
     * @param absolutePath an absolute path, possibly holding {@code ..} and symbolic links
     */
    Target target(String absolutePath);

    /**
     * A probe for a file system made of the executables {@code executables}
     * accepts and nothing else: every other path is missing. For tests and for
     * deciding about commands on another machine.
     */
    static FileProbe executablesOnly(Predicate<String> executables) {
        Objects.requireNonNull(executables, "executables");
        return new FileProbe() {
            @Override
            public boolean isExecutableRegularFile(String absolutePath) {
                return executables.test(absolutePath);
            }

            @Override
            public Target target(String absolutePath) {
                return executables.test(absolutePath) ? new Target(Kind.REGULAR_FILE, absolutePath) : Target.MISSING;
            }
        };
    }

    /**
     * {@code files}, remembering where program names were found along the
     * search path, for the life of the returned probe: a name found before is
     * looked up again only at the path it was found at, which must still hold
     * an executable regular file (else the search runs again), instead of at
     * every search path entry. Names not found are not remembered. As with a
     * shell's hash table, a program that appears in a directory earlier on the
     * search path than the remembered one is seen once the remembered one is
     * gone. Paths given with a {@code /} are looked up every time.
     */
    static FileProbe rememberingPrograms(FileProbe files) {
        return files instanceof ProgramMemo ? files : new ProgramMemo(files);
    }

    /** What kind of file a path leads to. */
    enum Kind {
        /** Nothing there (or nothing this user can reach). */
        MISSING,
        /** A regular file. */
        REGULAR_FILE,
        /** A directory. */
        DIRECTORY,
        /** Anything else: a terminal or other device, a FIFO, a socket, or something that could not be resolved. */
        OTHER
    }

    /**
     * Where a path leads.
     *
     * @param kind what is there
     * @param realPath the absolute path with every symbolic link and {@code ..}
     *                 resolved; empty for {@link Kind#MISSING}
     */
    record Target(Kind kind, String realPath) {

        /** Nothing there. */
        public static final Target MISSING = new Target(Kind.MISSING, "");

        public Target {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(realPath, "realPath");
            if ((kind == Kind.MISSING) != realPath.isEmpty()) {
                throw new IllegalArgumentException("a real path goes with an existing file and only with it: "
                        + kind + " " + realPath);
            }
            if (!realPath.isEmpty() && !realPath.startsWith("/")) {
                throw new IllegalArgumentException("real path must be absolute: " + realPath);
            }
        }
    }
}
