package dev.aii.exec;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The controlling terminal through {@code /dev/tty}, with java.io only, for
 * embedders without native access. Each prompt opens the device afresh, so a
 * process without a controlling terminal gets an {@link IOException} from
 * {@link #open()}.
 *
 * <p>Reads go through a {@link FileChannel}, whose closing wakes a blocked
 * read: that is how a cancellation ends a prompt. Type-ahead is discarded as
 * far as the terminal reports it as available, which in canonical mode means
 * whole lines; the native terminal flushes the input queue instead.
 */
public final class DevTtyTerminal implements Terminal {

    private static final String DEVICE = "/dev/tty";

    /** Longest answer line kept; the first character is what counts. */
    private static final int LINE_LIMIT = 1024;

    /** The terminal of this process. */
    public DevTtyTerminal() {
    }

    @Override
    public Conversation open() throws IOException {
        FileInputStream in = new FileInputStream(DEVICE);
        try {
            return new TtyConversation(in, new FileOutputStream(DEVICE));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    private static final class TtyConversation implements Conversation {

        private final FileInputStream in;
        private final FileChannel reader;
        private final FileOutputStream out;

        TtyConversation(FileInputStream in, FileOutputStream out) {
            this.in = in;
            this.reader = in.getChannel();
            this.out = out;
        }

        @Override
        public void discardTypeAhead() throws IOException {
            byte[] sink = new byte[256];
            int pending;
            while ((pending = in.available()) > 0) {
                if (in.read(sink, 0, Math.min(pending, sink.length)) < 0) {
                    return;
                }
            }
        }

        @Override
        public void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        @Override
        public Optional<String> readLine(Cancellation cancellation) throws IOException {
            ByteBuffer buffer = ByteBuffer.allocate(LINE_LIMIT);
            int n;
            try (Cancellation.Registration ignored = cancellation.register(this::closeReader)) {
                // In canonical mode one read returns one line, or what was typed before Ctrl-D.
                n = reader.read(buffer);
            } catch (ClosedChannelException e) {
                if (cancellation.isCancelled()) {
                    return Optional.empty();
                }
                throw e;
            }
            if (n < 0) {
                return Optional.empty();
            }
            buffer.flip();
            int end = 0;
            while (end < buffer.limit() && buffer.get(end) != '\n') {
                end++;
            }
            if (end > 0 && buffer.get(end - 1) == '\r') {
                end--;
            }
            buffer.limit(end);
            return Optional.of(StandardCharsets.UTF_8.decode(buffer).toString());   // invalid UTF-8: U+FFFD
        }

        private void closeReader() {
            try {
                reader.close();
            } catch (IOException e) {
                // The conversation ends either way.
            }
        }

        @Override
        public void close() {
            try (in; out) {
                reader.close();
            } catch (IOException e) {
                // Closing a terminal device has nothing to report.
            }
        }
    }
}
