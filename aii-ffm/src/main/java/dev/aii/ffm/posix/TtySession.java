package dev.aii.ffm.posix;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.aii.exec.Cancellation;
import dev.aii.exec.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One prompt's descriptor on {@code /dev/tty}, opened with {@code O_NOCTTY}
 * so that opening it can never make the terminal aii's controlling terminal.
 * Each call works in its own confined arena, so the conversation may move
 * between threads (one at a time).
 */
public final class TtySession implements Terminal.Conversation {

    /** How often a waiting read looks at its cancellation. */
    private static final int CANCEL_CHECK_MILLIS = 100;
    /** A line longer than this is cut: only its first character is ever an answer. */
    private static final int MAX_LINE = 4096;

    private final LibC libc;
    private int fd;

    private TtySession(LibC libc, int fd) {
        this.libc = libc;
        this.fd = fd;
    }

    /**
     * Opens {@code path} (the controlling terminal, {@code /dev/tty}) for reading and writing.
     *
     * @throws IOException with the system's words when there is none, e.g. {@code No such device or address}
     */
    public static TtySession open(LibC libc, String path) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            OsConstants os = calls.os();
            int fd = calls.open(path, OsConstants.O_RDWR | os.oNoctty() | os.oCloexec());
            if (fd < 0) {
                throw new IOException("cannot open " + path + ": " + calls.errnoText());
            }
            return new TtySession(libc, fd);
        }
    }

    @Override
    public void discardTypeAhead() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            if (calls.tcflush(openFd(), calls.os().tciflush()) != 0) {
                throw new IOException("cannot discard terminal input: " + calls.errnoText());
            }
        }
    }

    @Override
    public void write(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            MemorySegment data = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, data, JAVA_BYTE, 0, bytes.length);
            long done = 0;
            while (done < bytes.length) {
                long n = calls.write(openFd(), data.asSlice(done), bytes.length - done);
                if (n < 0) {
                    throw new IOException("cannot write to the terminal: " + calls.errnoText());
                }
                done += n;
            }
        }
    }

    @Override
    public Optional<String> readLine(Cancellation cancellation) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try (Arena arena = Arena.ofConfined()) {
            Calls calls = new Calls(libc, arena);
            MemorySegment one = arena.allocate(1);
            while (true) {
                if (cancellation.isCancelled()) {
                    return Optional.empty();
                }
                short revents = calls.poll(openFd(), OsConstants.POLLIN, CANCEL_CHECK_MILLIS);
                if (revents < 0) {
                    throw new IOException("cannot wait for the terminal: " + calls.errnoText());
                }
                if ((revents & OsConstants.POLLNVAL) != 0) {
                    throw new IOException("cannot read the terminal: descriptor not open");
                }
                if (revents == 0) {
                    continue;
                }
                // Bytes one at a time: never read past the end of the line into a later prompt's input.
                long n = calls.read(openFd(), one, 1);
                if (n < 0) {
                    throw new IOException("cannot read the terminal: " + calls.errnoText());
                }
                if (n == 0) {
                    return line.size() == 0 ? Optional.empty() : Optional.of(decode(line));
                }
                byte b = one.get(JAVA_BYTE, 0);
                if (b == '\n' || b == '\r') {
                    return Optional.of(decode(line));
                }
                if (line.size() < MAX_LINE) {
                    line.write(b);
                }
            }
        }
    }

    @Override
    public void close() {
        if (fd < 0) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            new Calls(libc, arena).close(fd);
        }
        fd = -1;
    }

    private int openFd() throws IOException {
        if (fd < 0) {
            throw new IOException("the terminal conversation is closed");
        }
        return fd;
    }

    private static String decode(ByteArrayOutputStream bytes) {
        return StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes.toByteArray())).toString();   // invalid: U+FFFD
    }
}
