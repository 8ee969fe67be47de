package dev.aii.cli.flags;

/**
 * The {@code --help} text. The build renders it from {@link Options} with
 * picocli into {@link HelpData} (see {@code src/build/java}), so that
 * printing it loads no parser and reads no resource; without it (classes
 * compiled by something other than the build) picocli renders it now, the
 * same text. Either way it is rendered one line an entry, and
 * {@link HelpLayout} fits it to the terminal's width.
 */
public final class HelpText {

    private HelpText() {
    }

    /** The help fitted to {@code width} columns. */
    public static String get(int width) {
        String fitted = width == Columns.DEFAULT ? HelpData.fittedToDefault() : null;
        return fitted != null ? fitted : HelpLayout.fit(raw(), width);
    }

    /** The help as rendered, one line an entry. */
    static String raw() {
        String rendered = HelpData.text();
        return rendered != null ? rendered : Flags.usage();
    }
}
