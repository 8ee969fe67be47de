/**
 * The command line's flags and its help: the picocli command class
 * {@link dev.aii.cli.flags.Options} (the one package opened to picocli), the
 * readers that answer the usual command lines without picocli
 * ({@link dev.aii.cli.flags.Shortcut}, {@link dev.aii.cli.flags.QuickFlags}),
 * what is taken off before picocli reads the rest ({@code --check}'s
 * command, {@code -m} given a value), and the {@code --help} text the build
 * renders and {@link dev.aii.cli.flags.HelpLayout} fits to {@code COLUMNS}.
 */
package dev.aii.cli.flags;
