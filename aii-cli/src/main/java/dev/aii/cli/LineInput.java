package dev.aii.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reads the user's lines in interactive mode. */
interface LineInput extends AutoCloseable {

    /**
     * Shows {@code prompt} and reads one line.
     *
     * @return the line, or empty at end of input
     */
    Optional<String> readLine(String prompt) throws IOException;

    @Override
    default void close() {
    }

    /** Lines from a stream that is not a terminal: the prompt is written to {@code out}, no editing. */
    static LineInput plain(InputStream in, OutputStream out) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)));
        return prompt -> {
            try {
                out.write(prompt.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                // Unchecked, so that it is not taken for a failure to read.
                throw new UncheckedIOException(e);
            }
            return Optional.ofNullable(reader.readLine());
        };
    }
}
