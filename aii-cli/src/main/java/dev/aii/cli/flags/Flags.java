package dev.aii.cli.flags;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The only place that touches picocli at run time. Its classes are compiled
 * for Java 5, which the JDK's startup cache cannot hold, so the commands
 * answered by {@link Shortcut} never load this class.
 */
public final class Flags {

    private Flags() {
    }

    /**
     * Fills {@code options} from {@code args}.
     *
     * @return the usage error's message when the arguments are not a valid command line
     */
    public static Optional<String> parse(Options options, String[] args) {
        try {
            CommandLine parser = parser(options);
            CommandLine.ParseResult result = parser.parseArgs(args);
            // picocli lets arguments it cannot place pass when --help or --version is there; aii does not.
            if (!result.unmatched().isEmpty()) {
                return Optional.of(new CommandLine.UnmatchedArgumentException(parser, result.unmatched()).getMessage());
            }
            // Several words are one prompt, as in every other tool: aii what is 2+2.
            options.prompt = options.words.isEmpty() ? null : String.join(" ", options.words);
            return Optional.empty();
        } catch (CommandLine.ParameterException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * The {@code --help} text as picocli renders it from {@link Options},
     * without colours, one line an entry ({@link HelpLayout} fits it to the terminal).
     */
    static String usage() {
        StringWriter text = new StringWriter();
        CommandLine parser = parser(new Options());
        parser.setUsageHelpLongOptionsMaxWidth(HelpLayout.RENDER_TERM_WIDTH);
        parser.usage(new PrintWriter(text), CommandLine.Help.Ansi.OFF);
        return text.toString();
    }

    static CommandLine parser(Options options) {
        CommandLine parser = new CommandLine(options);
        parser.setExpandAtFiles(false);
        parser.setPosixClusteredShortOptionsAllowed(true);
        parser.setEndOfOptionsDelimiter("--");
        parser.setCaseInsensitiveEnumValuesAllowed(false);
        return parser;
    }
}
