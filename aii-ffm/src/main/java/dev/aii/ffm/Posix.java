package dev.aii.ffm;

import dev.aii.ffm.posix.Calls;
import dev.aii.ffm.posix.Lifetimes;
import dev.aii.ffm.posix.LibC;
import dev.aii.ffm.posix.OsConstants;
import dev.aii.ffm.posix.Probe;
import java.lang.foreign.Arena;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether commands can be run and the terminal reached through the C library
 * (Linux with glibc 2.34 or newer, macOS; 64-bit), and the runner and terminal
 * that do it. Without it a caller falls back to the portable
 * {@code ProcessBuilder} runner and {@code java.io} terminal of aii-core, and
 * should say once what that loses, with {@link Unavailable#warning()}.
 *
 * {@snippet :
 * switch (Posix.availability()) {
 *     case Posix.Available posix -> builder.runner(posix.runner());
 *     case Posix.Unavailable none -> {
 *         output.warning(none.warning());
 *         builder.runner(new ProcessBuilderRunner());
 *     }
 * }
 * }
 */
public final class Posix {

    private Posix() {
    }

    /** Whether the POSIX runner and terminal work here. */
    public sealed interface Availability permits Available, Unavailable {
    }

    /** They work: here they are. */
    public record Available(PosixCommandRunner runner, PosixTerminal terminal) implements Availability {

        public Available {
            Objects.requireNonNull(runner, "runner");
            Objects.requireNonNull(terminal, "terminal");
        }
    }

    /**
     * They do not work.
     *
     * @param reason why, e.g. {@code the JVM was started without --enable-native-access=dev.aii.ffm}
     */
    public record Unavailable(String reason) implements Availability {

        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }

        /**
         * The warning to print once (after {@code aii: warning: }) when falling back:
         * {@code native access unavailable (<reason>); commands can read this terminal and their background processes may outlive them}.
         */
        public String warning() {
            return "native access unavailable (" + reason + "); "
                    + "commands can read this terminal and their background processes may outlive them";
        }
    }

    /** Probed once per JVM: whether native access is granted, the system supported, and the C library as expected. */
    public static Availability availability() {
        return Holder.AVAILABILITY;
    }

    /** Shorthand for {@code availability() instanceof Available}. */
    public static boolean available() {
        return Holder.AVAILABILITY instanceof Available;
    }

    /**
     * A watch of the pipe that file descriptor {@code fd} writes to: its
     * {@link PipeReaderWatch#await()} returns true once nothing reads that
     * pipe any more, and {@link PipeReaderWatch#close()} ends the wait.
     *
     * @throws UnsupportedOperationException when {@link #available()} is false
     * @throws IllegalStateException when no pipe could be made for waking the wait
     */
    public static PipeReaderWatch watchPipeReader(int fd) {
        Arena arena = Arena.ofShared();
        try {
            Calls calls = new Calls(libc(), arena);
            int[] wake = calls.pipeCloexec();
            if (wake == null) {
                throw new IllegalStateException("cannot make a pipe: errno " + calls.errno());
            }
            return new PipeReaderWatch(fd, calls, arena, wake);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** The bound C library, for the runner and the terminal; throws when unavailable. */
    static LibC libc() {
        if (Holder.LIBC.isEmpty()) {
            throw new UnsupportedOperationException(
                    "native access unavailable: " + ((Unavailable) Holder.AVAILABILITY).reason());
        }
        return Holder.LIBC.get();
    }

    /** The commands running in this JVM: one set for every runner, as the kernel keeps one set of children. */
    static Lifetimes lifetimes() {
        libc();
        return Holder.LIFETIMES.orElseThrow();
    }

    /** Lazily initialised, immutable once set: the probe runs at the first use only. */
    private static final class Holder {
        static final Optional<LibC> LIBC;
        static final Optional<Lifetimes> LIFETIMES;
        static final Availability AVAILABILITY;

        static {
            Probed probed;
            try {
                probed = probe();
            } catch (RuntimeException e) {
                probed = new Probed(Optional.empty(), "self-check failed: " + e);
            }
            LIBC = probed.libc();
            LIFETIMES = LIBC.map(Lifetimes::new);
            try {
                LIFETIMES.ifPresent(Lifetimes::prepare);
            } catch (RuntimeException e) {
                // Only a head start for the first command, which reads the same itself.
            }
            AVAILABILITY = probed.libc().isPresent()
                    ? new Available(new PosixCommandRunner(LIBC.get(), LIFETIMES.get()), new PosixTerminal(LIBC.get()))
                    : new Unavailable(probed.reason());
        }
    }

    private record Probed(Optional<LibC> libc, String reason) {
    }

    /**
     * What {@link #availability()} will say when it can be told without
     * binding anything (microseconds, where binding takes the JDK 50 to
     * 200 ms): no native access for this module, or an unsupported system.
     * Empty means binding decides: {@link #availability()} may still be
     * {@link Unavailable} (a C library without a function aii needs, or a
     * failed self-check), which only it can tell.
     */
    public static Optional<Unavailable> unavailableBeforeBinding() {
        Module module = Posix.class.getModule();
        if (!module.isNativeAccessEnabled()) {
            String name = module.isNamed() ? module.getName() : "ALL-UNNAMED";
            return Optional.of(new Unavailable("the JVM was started without --enable-native-access=" + name));
        }
        OsConstants.Support support = OsConstants.forCurrentSystem(
                System.getProperty("os.name", "?"), System.getProperty("os.arch", "?"));
        return support.constants().isEmpty() ? Optional.of(new Unavailable(support.reason())) : Optional.empty();
    }

    private static Probed probe() {
        Optional<Unavailable> before = unavailableBeforeBinding();
        if (before.isPresent()) {
            return new Probed(Optional.empty(), before.get().reason());
        }
        OsConstants os = OsConstants.forCurrentSystem(
                System.getProperty("os.name", "?"), System.getProperty("os.arch", "?")).constants().orElseThrow();
        Optional<String> missing = LibC.missingSymbol(os);
        if (missing.isPresent()) {
            String hint = os.isMacos() ? "" : " (glibc 2.34 or newer is needed)";
            return new Probed(Optional.empty(), "the C library has no " + missing.get() + hint);
        }
        LibC libc;
        try {
            libc = new LibC(os);
        } catch (RuntimeException e) {
            return new Probed(Optional.empty(), "cannot bind the C library: " + e.getMessage());
        }
        Optional<String> failure = Probe.check(libc);
        return failure.map(f -> new Probed(Optional.empty(), "self-check failed: " + f))
                .orElseGet(() -> new Probed(Optional.of(libc), ""));
    }
}
