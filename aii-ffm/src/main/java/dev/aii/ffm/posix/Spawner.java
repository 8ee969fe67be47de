package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Starts one program with {@code posix_spawn}: in a new session (so without a
 * controlling terminal, leading its own process group), with an empty signal
 * mask and every signal at its default action, stdin from {@code /dev/null}, stdout and stderr onto one
 * descriptor, and no other descriptor inherited. Never forks the JVM.
 *
 * <p>{@code /dev/null} is opened here (close-on-exec, at descriptor 3 or
 * above) and duplicated onto the child's stdin, rather than opened by the
 * child ({@code posix_spawn_file_actions_addopen}): one C signature fewer for
 * the JDK to link in a fresh process, and a missing {@code /dev/null} is
 * reported before anything is spawned.
 */
public final class Spawner {

    /** The one argument of the rehearsal's vector ({@link #rehearse}). */
    private static final byte[] REHEARSAL_ARGUMENT = "/dev/null".getBytes(StandardCharsets.US_ASCII);

    private Spawner() {
    }

    /**
     * The outcome of a spawn.
     *
     * @param pid the child's process id (also its process group and session id), when {@code error} is 0
     * @param error the error number posix_spawn returned, 0 on success
     */
    public record Outcome(int pid, int error) {
    }

    /**
     * Spawns {@code argv[0]} as the program with {@code argv} and the current environment.
     *
     * @param argv NUL-free encoded strings; argv[0] is the path of the program
     * @param output a descriptor of at least 3 for the child's stdout and stderr
     */
    public static Outcome spawn(Calls calls, Arena arena, List<byte[]> argv, int output) {
        return spawn(calls, arena, argv, null, output);
    }

    /**
     * Spawns {@code argv[0]} as the program with {@code argv} and {@code environment}.
     *
     * @param environment NUL-free encoded {@code NAME=value} strings, or null for the current environment
     */
    public static Outcome spawn(Calls calls, Arena arena, List<byte[]> argv, List<byte[]> environment, int output) {
        if (output < 3) {
            throw new IllegalArgumentException("output descriptor must be at least 3: " + output);
        }
        return prepared(calls, arena, output, (attr, actions) -> {
            MemorySegment pid = arena.allocate(JAVA_INT);
            MemorySegment argvArray = strings(arena, argv);
            MemorySegment path = argvArray.getAtIndex(ADDRESS, 0);
            MemorySegment envp = environment == null ? calls.environ() : strings(arena, environment);
            int rc = (int) calls.libc().posixSpawn.invokeExact(pid, path, actions, attr, argvArray, envp);
            return rc == 0 ? new Outcome(pid.get(JAVA_INT, 0), 0) : new Outcome(-1, rc);
        });
    }

    /**
     * Sets up and tears down everything of a spawn but the spawn itself: the
     * attributes and file actions a command gets, with {@code /dev/null} for
     * its output too, and an argument vector, read back as the spawn reads
     * it. Nothing is started. Run once at startup ({@link Probe}), it checks
     * that the C library takes them, and spares the first command the first
     * run of that code: in a fresh process each first call of a C function,
     * and the first pointer written into native memory, has the JDK generate
     * a few classes. Rehearsing the set-up took 3 ms off the first tool call
     * of a fresh process, the vector about 5 ms more (docs/benchmarks.md).
     *
     * @return the error number the setup failed with, 0 when it went through
     */
    public static int rehearse(Calls calls, Arena arena) {
        return prepared(calls, arena, -1, (attr, actions) -> {
            byte[] argument = REHEARSAL_ARGUMENT.clone();
            MemorySegment argv = strings(arena, List.of(argument));
            MemorySegment first = argv.getAtIndex(ADDRESS, 0).reinterpret(argument.length + 1L);
            boolean readsBack = first.get(JAVA_BYTE, 0) == argument[0] && first.get(JAVA_BYTE, argument.length) == 0
                    && argv.getAtIndex(ADDRESS, 1).equals(MemorySegment.NULL);
            return new Outcome(0, readsBack ? 0 : calls.os().errno(Errno.EINVAL));
        }).error();
    }

    /** What runs once the attributes and file actions are set up, before they are destroyed. */
    @FunctionalInterface
    private interface WithSetup {
        Outcome run(MemorySegment attr, MemorySegment actions) throws Throwable;
    }

    /**
     * Sets up a spawn's attributes and file actions, stdin from
     * {@code /dev/null} and stdout and stderr onto {@code output} (negative:
     * onto that {@code /dev/null} too), runs {@code body}, and destroys them.
     */
    private static Outcome prepared(Calls calls, Arena arena, int output, WithSetup body) {
        LibC c = calls.libc();
        OsConstants os = calls.os();
        MemorySegment attr = arena.allocate(OsConstants.OPAQUE_SIZE, OsConstants.OPAQUE_ALIGN);
        MemorySegment actions = arena.allocate(OsConstants.OPAQUE_SIZE, OsConstants.OPAQUE_ALIGN);
        MemorySegment emptyMask = arena.allocate(OsConstants.OPAQUE_SIZE, OsConstants.OPAQUE_ALIGN);
        MemorySegment defaults = arena.allocate(OsConstants.OPAQUE_SIZE, OsConstants.OPAQUE_ALIGN);
        int devNull = openDevNull(calls);
        if (devNull < 0) {
            return new Outcome(-1, calls.errno());
        }
        int out = output < 0 ? devNull : output;
        try {
            check((int) c.attrInit.invokeExact(attr));
            try {
                check((int) c.actionsInit.invokeExact(actions));
                try {
                    short flags = (short) (os.spawnSetsid() | os.spawnCloexecDefault()
                            | OsConstants.SPAWN_SETSIGMASK | OsConstants.SPAWN_SETSIGDEF);
                    check((int) c.attrSetflags.invokeExact(attr, flags));
                    check((int) c.sigemptyset.invokeExact(emptyMask));
                    check((int) c.attrSetsigmask.invokeExact(attr, emptyMask));
                    check((int) c.sigemptyset.invokeExact(defaults));
                    allSignals(os, defaults);
                    check((int) c.attrSetsigdefault.invokeExact(attr, defaults));

                    check((int) c.actionsAdddup2.invokeExact(actions, devNull, 0));
                    check((int) c.actionsAdddup2.invokeExact(actions, out, 1));
                    check((int) c.actionsAdddup2.invokeExact(actions, out, 2));
                    if (c.actionsAddclosefrom.isPresent()) {
                        check((int) c.actionsAddclosefrom.get().invokeExact(actions, 3));
                    }
                    return body.run(attr, actions);
                } finally {
                    int ignored = (int) c.actionsDestroy.invokeExact(actions);
                }
            } finally {
                int ignored = (int) c.attrDestroy.invokeExact(attr);
            }
        } catch (SetupFailed e) {
            return new Outcome(-1, e.error);
        } catch (Throwable t) {
            throw LibC.rethrow(t);
        } finally {
            calls.close(devNull);
        }
    }

    /**
     * {@code /dev/null} for reading, close-on-exec, at descriptor 3 or above
     * (so duplicating it onto 0 never meets one of the descriptors 0 to 2 that
     * the other actions write); -1 with {@code errno} when it cannot be opened.
     */
    public static int openDevNull(Calls calls) {
        OsConstants os = calls.os();
        int fd = calls.open("/dev/null", OsConstants.O_RDONLY | os.oCloexec() | os.oNoctty());
        if (fd < 0 || fd >= 3) {
            return fd;
        }
        int moved = calls.fcntl(fd, os.fDupfdCloexec(), 3);
        int saved = calls.errno();
        calls.close(fd);
        if (moved < 0) {
            calls.restoreErrno(saved);
        }
        return moved;
    }

    /** A NULL-terminated {@code char *[]} of {@code strings}, each NUL-terminated. */
    private static MemorySegment strings(Arena arena, List<byte[]> strings) {
        MemorySegment array = arena.allocate(ADDRESS, strings.size() + 1L);
        for (int i = 0; i < strings.size(); i++) {
            byte[] bytes = strings.get(i);
            MemorySegment s = arena.allocate(bytes.length + 1L);
            MemorySegment.copy(bytes, 0, s, JAVA_BYTE, 0, bytes.length);
            array.setAtIndex(ADDRESS, i, s);
        }
        array.setAtIndex(ADDRESS, strings.size(), MemorySegment.NULL);
        return array;
    }

    /**
     * Marks every signal in an empty {@code sigset_t} but SIGKILL and SIGSTOP,
     * whose action cannot change. The bits are written directly: glibc's
     * {@code sigfillset} and {@code sigaddset} leave out its internal signals
     * 32 and 33, which its {@code posix_spawn} then starts the child with
     * ignored; anything aii's own parent ignored (under {@code nohup}, or a
     * shell's {@code trap ''}) would be inherited as well.
     */
    static void allSignals(OsConstants os, MemorySegment set) {
        long bits = 0;
        for (int signal = 1; signal <= os.lastSignal(); signal++) {
            if (signal != OsConstants.SIGKILL && signal != os.sigStop()) {
                bits |= 1L << (signal - 1);
            }
        }
        // glibc: unsigned long words, signal n at bit n-1 of the first; macOS: one 32-bit word.
        if (os.lastSignal() > 32) {
            set.set(JAVA_LONG, 0, bits);
        } else {
            set.set(JAVA_INT, 0, (int) bits);
        }
    }

    /** Setting up fails only for want of memory (or a defect): reported like a failed launch, with its error number. */
    private static void check(int rc) {
        if (rc != 0) {
            throw new SetupFailed(rc);
        }
    }

    private static final class SetupFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int error;

        SetupFailed(int error) {
            super(null, null, false, false);
            this.error = error;
        }
    }
}
