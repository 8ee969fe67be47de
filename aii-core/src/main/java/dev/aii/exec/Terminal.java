package dev.aii.exec;

import java.io.IOException;
import java.util.Optional;

/** The user's terminal, reached directly (never through stdin or stdout). */
public interface Terminal {

    /**
     * Opens the controlling terminal for one prompt.
     *
     * @throws IOException when there is no terminal to ask (no controlling terminal)
     */
    Conversation open() throws IOException;

    /** One prompt's use of the terminal. */
    interface Conversation extends AutoCloseable {

        /** Throws away keys typed before the prompt, so type-ahead cannot answer it. */
        void discardTypeAhead() throws IOException;

        /** Writes {@code text} (UTF-8) and flushes. */
        void write(String text) throws IOException;

        /**
         * Reads one line without its terminator.
         *
         * @return the line, or empty at end of input or when {@code cancellation} fires
         */
        Optional<String> readLine(Cancellation cancellation) throws IOException;

        @Override
        void close();
    }
}
