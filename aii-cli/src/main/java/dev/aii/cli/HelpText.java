package dev.aii.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code --help} text. The build renders it from {@link Options} with
 * picocli into the resource {@code help.txt} (see {@code src/build/java}), so
 * that printing it loads no parser; without the resource (classes compiled
 * by something other than the build) picocli renders it now, the same text.
 * Either way it is rendered one line an entry, and {@link HelpLayout} fits it
 * to the terminal's width.
 */
final class HelpText {

    static final String RESOURCE = "help.txt";

    private HelpText() {
    }

    /** The help fitted to {@code width} columns. */
    static String get(int width) {
        return HelpLayout.fit(raw(), width);
    }

    /** The help as rendered, one line an entry. */
    static String raw() {
        try (InputStream in = HelpText.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return Flags.usage();
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the help text of aii", e);
        }
    }
}
