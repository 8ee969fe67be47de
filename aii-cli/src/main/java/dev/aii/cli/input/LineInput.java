package dev.aii.cli.input;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

/** Reads the user's lines in interactive mode. */
public interface LineInput extends AutoCloseable {

    /**
     * Shows {@code prompt} and reads one line.
     *
     * @return the line, or empty at end of input
     */
    Optional<String> readLine(String prompt) throws IOException;

    @Override
    default void close() {
    }

    /**
     * Lines from a stream that is not a terminal, without editing.
     *
     * @param showPrompt writes the prompt (on stdout, through the console); fails unchecked, so that
     *        a prompt that cannot be written is not taken for a failure to read
     */
    static LineInput plain(InputStream in, Consumer<String> showPrompt) {
        // A reader on a charset replaces invalid UTF-8 with U+FFFD.
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return prompt -> {
            showPrompt.accept(prompt);
            return Optional.ofNullable(reader.readLine());
        };
    }
}
