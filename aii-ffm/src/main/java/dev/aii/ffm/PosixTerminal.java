package dev.aii.ffm;

import dev.aii.exec.Terminal;
import dev.aii.ffm.posix.LibC;
import dev.aii.ffm.posix.TtySession;
import java.io.IOException;
import java.util.Objects;

/**
 * The controlling terminal through the C library: {@code /dev/tty} opened
 * with {@code O_RDWR | O_NOCTTY} for each prompt; pending input discarded with
 * {@code tcflush(TCIFLUSH)} so that keys typed before a prompt cannot answer
 * it; a line read that gives up (as "no") as soon as its cancellation fires,
 * so a Ctrl-C at the prompt, turned into a cancellation by the caller's SIGINT
 * handler, answers it.
 */
public final class PosixTerminal implements Terminal {

    private static final String TTY = "/dev/tty";

    private final LibC libc;

    /** @throws UnsupportedOperationException with the reason when {@link Posix#available()} is false */
    public PosixTerminal() {
        this(Posix.libc());
    }

    PosixTerminal(LibC libc) {
        this.libc = Objects.requireNonNull(libc, "libc");
    }

    /** @throws IOException {@code cannot open /dev/tty: <reason>} when there is no controlling terminal */
    @Override
    public Conversation open() throws IOException {
        return TtySession.open(libc, TTY);
    }
}
