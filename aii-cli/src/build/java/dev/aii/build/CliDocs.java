package dev.aii.build;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Build-time generator, run by aii-cli's build after compilation and never
 * shipped: renders from the real picocli command class the {@code --help}
 * text (a resource of the jar, so that {@code aii --help} needs no picocli at
 * run time), the bash and zsh completion scripts and the man page. Everything
 * derives from {@code dev.aii.cli.Options}, so none of it can drift from the flags.
 *
 * <p>Usage: {@code java -cp <aii-cli classes and dependencies> CliDocs.java
 * <classes dir> <output dir> <version> <timestamp>}
 */
public final class CliDocs {

    private CliDocs() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: CliDocs <classes dir> <output dir> <version> <yyyy-mm-dd[Thh:mm:ssZ]>");
        }
        Path classes = Path.of(args[0]);
        Path out = Path.of(args[1]);
        String version = args[2];
        String date = args[3].substring(0, Math.min(10, args[3].length()));
        CommandLine command = new CommandLine(Class.forName("dev.aii.cli.Options"));

        StringWriter help = new StringWriter();
        // As dev.aii.cli.Flags.usage renders it: one line an entry, fitted to the terminal at run time.
        command.setUsageHelpLongOptionsMaxWidth(40);
        command.usage(new PrintWriter(help), CommandLine.Help.Ansi.OFF);
        write(classes.resolve("dev/aii/cli/help.txt"), help.toString());

        write(out.resolve("completion/aii.bash"), BashCompletion.of(command.getCommandSpec()));
        write(out.resolve("completion/_aii"), ZshCompletion.of(command.getCommandSpec()));

        write(out.resolve("man/aii.1"), new ManPage(command.getCommandSpec(), version, date).troff());
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
