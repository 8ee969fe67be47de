package dev.aii.cli.flags;

/**
 * The {@code --help} text as the build rendered it. The build's CliDocs
 * (see {@code src/build/java}) rewrites this class after compilation so that
 * {@link #text()} returns the rendered text as a constant, and
 * {@link #fittedToDefault()} that text laid out 80 columns wide: {@code aii
 * --help} then reads no resource, which would open the jar, and usually lays
 * out nothing. Compiled any other way,
 * there is no text and {@link HelpText} renders it with picocli.
 */
final class HelpData {

    private HelpData() {
    }

    /** The rendered help, or null when the build did not render it into this class. */
    static String text() {
        return null;
    }

    /**
     * The rendered help fitted to {@link Columns#DEFAULT} columns (COLUMNS is
     * seldom exported), or null when the build did not render it into this class.
     */
    static String fittedToDefault() {
        return null;
    }
}
