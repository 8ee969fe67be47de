package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Optional;

/**
 * Downcall handles for the few C library functions aii needs, bound once for
 * one system; on Linux most calls go through {@code syscall(2)} instead (see
 * {@link #raw}). Handles that set {@code errno} take a capture segment first
 * (see {@link Calls}); the {@code posix_spawn} family returns its error
 * number instead. Create only when native access is granted: binding is a
 * restricted operation.
 */
@SuppressWarnings("restricted") // used only once Posix found native access granted
public final class LibC {

    static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    final OsConstants os;
    private final Linker linker = Linker.nativeLinker();
    private final SymbolLookup lookup = linker.defaultLookup();

    /**
     * Linux: the system call numbers that {@link #syscall} is called with for
     * open, close, read, write, poll, fcntl, pipe2, kill, killpg, prctl,
     * waitid, waitpid and the pidfd calls; null where those go to the C
     * library's functions of the same names (macOS, or when asked for).
     */
    final LinuxSyscalls raw;
    /** With {@link #raw}: {@code syscall(number, a1, ..., a5)}, every argument a long as syscall(2) reads them. */
    final MethodHandle syscall;

    // The C library's functions, linked with this object unless raw covers them (then never).
    // (state, path, flags, mode) -> int; mode is variadic
    final Downcall open;
    final Downcall close;
    final Downcall read;
    final Downcall write;
    // (state, fds, long nfds, timeout) -> int, whatever nfds_t is
    final Downcall poll;
    // (state, fd, cmd, arg) -> int; arg is variadic
    final Downcall fcntl;
    final Optional<Downcall> pipe2;
    /** macOS's pipe (without pipe2); on Linux never called, so linked only if it is. */
    final Downcall pipe;
    final Downcall killpg;
    final Downcall kill;
    /** Only a suspend (Ctrl-Z) calls it: linked then. */
    final Downcall raise;
    /** Linux: {@code prctl(option, unsigned long arg2)}; the rest of its variadic arguments unused. */
    final Optional<Downcall> prctl;
    /** Linux: {@code syscall(SYS_pidfd_open, pid, flags)}, every argument a long as syscall(2) reads them. */
    final Optional<Downcall> syscall2;
    /** Linux: {@code syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags)}; only a timeout calls it. */
    final Optional<Downcall> syscall4;
    /** Linux: {@code splice(fd_in, off_in, fd_out, off_out, len, flags)}; none where the C library lacks it. */
    final Optional<Downcall> splice;
    final Downcall waitid;
    final Downcall waitpid;
    final Downcall tcflush;

    final MethodHandle posixSpawn;
    final MethodHandle attrInit;
    final MethodHandle attrDestroy;
    final MethodHandle attrSetflags;
    final MethodHandle attrSetsigmask;
    final MethodHandle attrSetsigdefault;
    final MethodHandle actionsInit;
    final MethodHandle actionsDestroy;
    final MethodHandle actionsAdddup2;
    final Optional<MethodHandle> actionsAddclosefrom;
    final MethodHandle sigemptyset;
    /** glibc: the address of {@code char **environ}; macOS: none, see {@link #nsGetEnviron}. */
    final Optional<MemorySegment> environ;
    final Optional<MethodHandle> nsGetEnviron;
    final Optional<Downcall> gnuGetLibcVersion;

    /**
     * The C library of {@code os}: on Linux (x86_64, aarch64) the plain
     * calls go through {@code syscall(2)} with the kernel's numbers, which
     * the JDK links as one call signature; elsewhere through the C
     * library's functions.
     */
    public LibC(OsConstants os) {
        this(os, os.isMacos() ? Optional.empty() : LinuxSyscalls.forArch(System.getProperty("os.arch", "")));
    }

    /** {@code raw} empty: every call through the C library's function of its name (tests use it on Linux too). */
    LibC(OsConstants os, Optional<LinuxSyscalls> raw) {
        this.os = Objects.requireNonNull(os, "os");
        if (os.isMacos() && raw.isPresent()) {
            throw new IllegalArgumentException("system call numbers are Linux's");
        }
        this.raw = raw.orElse(null);
        syscall = raw.isEmpty() ? null
                : link("syscall",
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), 1);
        boolean libcCalls = raw.isEmpty();
        open = later("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 2, libcCalls);
        close = later("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1, libcCalls);
        read = later("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), -1, libcCalls);
        write = later("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), -1, libcCalls);
        FunctionDescriptor pollDescriptor = FunctionDescriptor.of(JAVA_INT, ADDRESS, os.nfdsLayout(), JAVA_INT);
        MethodType pollType = MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, long.class, int.class);
        poll = new Downcall(() -> MethodHandles.explicitCastArguments(link("poll", pollDescriptor, -1), pollType), libcCalls);
        fcntl = later("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2, libcCalls);
        pipe2 = os.isMacos() ? Optional.empty()
                : Optional.of(later("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), -1, libcCalls));
        pipe = later("pipe", FunctionDescriptor.of(JAVA_INT, ADDRESS), -1, false);
        // called as every command ends (the group is killed once its leader is gone)
        killpg = later("killpg", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), -1, libcCalls);
        kill = later("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), -1, libcCalls);
        raise = later("raise", FunctionDescriptor.of(JAVA_INT, JAVA_INT), -1, false);
        prctl = os.isMacos() ? Optional.empty()
                : Optional.of(later("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), 1, libcCalls));
        syscall2 = os.isMacos() ? Optional.empty()
                : Optional.of(later("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), 1,
                        libcCalls));
        syscall4 = os.isMacos() ? Optional.empty()
                : Optional.of(later("syscall",
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), 1, false));
        splice = os.isMacos() || lookup.find("splice").isEmpty() ? Optional.empty()
                : Optional.of(later("splice",
                        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), -1, false));
        waitid = later("waitid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), -1, libcCalls);
        waitpid = later("waitpid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), -1, libcCalls);
        tcflush = later("tcflush", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), -1, false);

        posixSpawn = plain("posix_spawn",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        attrInit = plain("posix_spawnattr_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        attrDestroy = plain("posix_spawnattr_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        attrSetflags = plain("posix_spawnattr_setflags", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_SHORT));
        attrSetsigmask = plain("posix_spawnattr_setsigmask", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        attrSetsigdefault = plain("posix_spawnattr_setsigdefault", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        actionsInit = plain("posix_spawn_file_actions_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        actionsDestroy = plain("posix_spawn_file_actions_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        actionsAdddup2 = plain("posix_spawn_file_actions_adddup2",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        actionsAddclosefrom = os.isMacos() ? Optional.empty()
                : Optional.of(plain("posix_spawn_file_actions_addclosefrom_np",
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)));
        sigemptyset = plain("sigemptyset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        environ = os.isMacos() ? Optional.empty()
                : Optional.of(symbol("environ").reinterpret(ADDRESS.byteSize()));
        nsGetEnviron = os.isMacos()
                ? Optional.of(plain("_NSGetEnviron", FunctionDescriptor.of(ADDRESS)))
                : Optional.empty();
        gnuGetLibcVersion = os.isMacos() ? Optional.empty()
                : lookup.find("gnu_get_libc_version")
                        .map(symbol -> new Downcall(() -> linker.downcallHandle(symbol, FunctionDescriptor.of(ADDRESS)),
                                false));
    }

    /** Whether the plain calls go through {@code syscall(2)} (see {@link #raw}). */
    public boolean rawSyscalls() {
        return raw != null;
    }

    /**
     * The names a system's C library must have, for a clear message when one
     * is missing (musl, or glibc before 2.34, lack {@code posix_spawn_file_actions_addclosefrom_np}).
     */
    public static Optional<String> missingSymbol(OsConstants os) {
        SymbolLookup lookup = Linker.nativeLinker().defaultLookup();
        String[] common = {"open", "close", "read", "write", "poll", "fcntl", "pipe", "killpg", "kill", "raise", "waitid", "waitpid",
            "tcflush", "posix_spawn", "posix_spawnattr_setsigdefault", "posix_spawn_file_actions_adddup2",
            "sigemptyset"};
        String[] specific = os.isMacos()
                ? new String[] {"_NSGetEnviron"}
                : new String[] {"pipe2", "environ", "posix_spawn_file_actions_addclosefrom_np", "gnu_get_libc_version",
                    "prctl", "syscall"};
        for (String[] names : new String[][] {common, specific}) {
            for (String name : names) {
                if (lookup.find(name).isEmpty()) {
                    return Optional.of(name);
                }
            }
        }
        return Optional.empty();
    }

    private MemorySegment symbol(String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalStateException("the C library has no " + name));
    }

    private MethodHandle plain(String name, FunctionDescriptor descriptor) {
        return linker.downcallHandle(symbol(name), descriptor);
    }

    /** A handle that captures errno (its first parameter is the capture segment). */
    private MethodHandle link(String name, FunctionDescriptor descriptor, int firstVariadic) {
        Linker.Option[] options = firstVariadic < 0
                ? new Linker.Option[] {CAPTURE_ERRNO}
                : new Linker.Option[] {CAPTURE_ERRNO, Linker.Option.firstVariadicArg(firstVariadic)};
        return linker.downcallHandle(symbol(name), descriptor, options);
    }

    /**
     * A handle that is linked now ({@code eager}) or the first time it is
     * called: the latter for a function that a command's run does not call
     * unless something unusual happens (output past the kept bytes: splice; a
     * timeout: a pidfd signal; an approval prompt: tcflush; Ctrl-Z: raise;
     * macOS: pipe), or that {@link #raw} system calls replace. Linking costs
     * the JDK a generated call stub for each new signature, 5 to 10 ms in a
     * fresh process, which the first tool call would otherwise wait for.
     */
    public static final class Downcall {
        private final java.util.function.Supplier<MethodHandle> link;
        private volatile MethodHandle handle;

        Downcall(java.util.function.Supplier<MethodHandle> link, boolean eager) {
            this.link = Objects.requireNonNull(link, "link");
            if (eager) {
                handle = link.get();
            }
        }

        /** The handle, linked now if it was not yet. */
        MethodHandle handle() {
            MethodHandle h = handle;
            if (h == null) {
                synchronized (this) {
                    h = handle;
                    if (h == null) {
                        h = link.get();
                        handle = h;
                    }
                }
            }
            return h;
        }

        /** Whether it was linked (for tests). */
        boolean linked() {
            return handle != null;
        }
    }

    /** An errno-capturing handle of {@code name}, linked now when {@code eager}, else at its first call. */
    private Downcall later(String name, FunctionDescriptor descriptor, int firstVariadic, boolean eager) {
        MemorySegment address = symbol(name);
        Linker.Option[] options = firstVariadic < 0
                ? new Linker.Option[] {CAPTURE_ERRNO}
                : new Linker.Option[] {CAPTURE_ERRNO, Linker.Option.firstVariadicArg(firstVariadic)};
        return new Downcall(() -> linker.downcallHandle(address, descriptor, options), eager);
    }

    /** Rethrows what a downcall threw; downcalls throw only unchecked exceptions and errors. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
