package dev.aii.build;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Build-time generator, run by aii-cli's build after compilation and never
 * shipped: renders from the real picocli command class the {@code --help}
 * text (a constant of the class {@code dev.aii.cli.flags.HelpData}, so that
 * {@code aii --help} needs no picocli and reads no resource at run time), the bash and zsh completion scripts and the man page. Everything
 * derives from {@code dev.aii.cli.flags.Options}, so none of it can drift from the flags.
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
        CommandLine command = new CommandLine(Class.forName("dev.aii.cli.flags.Options"));

        StringWriter help = new StringWriter();
        // As dev.aii.cli.flags.Flags.usage renders it: one line an entry, fitted to the terminal at run time.
        command.setUsageHelpLongOptionsMaxWidth(40);
        command.usage(new PrintWriter(help), CommandLine.Help.Ansi.OFF);
        // Fitted as aii fits it at run time, to the width it uses when COLUMNS is unset.
        Method fit = Class.forName("dev.aii.cli.flags.HelpLayout").getDeclaredMethod("fit", String.class, int.class);
        fit.setAccessible(true);
        Field columns = Class.forName("dev.aii.cli.flags.Columns").getDeclaredField("DEFAULT");
        columns.setAccessible(true);
        String fitted = (String) fit.invoke(null, help.toString(), columns.getInt(null));
        renderInto(classes.resolve("dev/aii/cli/flags/HelpData.class"), Map.of("text", help.toString(), "fittedToDefault", fitted));

        write(out.resolve("completion/aii.bash"), BashCompletion.of(command.getCommandSpec()));
        write(out.resolve("completion/_aii"), ZshCompletion.of(command.getCommandSpec()));

        write(out.resolve("man/aii.1"), new ManPage(command.getCommandSpec(), version, date).troff());
    }

    /**
     * Rewrites the compiled {@code HelpData} so that each static
     * {@code String} method named in {@code texts} returns its text as a
     * constant; everything else in the class stays.
     */
    static void renderInto(Path classFile, Map<String, String> texts) throws IOException {
        for (Map.Entry<String, String> text : texts.entrySet()) {
            if (text.getValue().getBytes(StandardCharsets.UTF_8).length > 60_000) {
                // a class file's string constant holds at most 65,535 bytes
                throw new IllegalStateException(text.getKey() + " is too long for a string constant");
            }
        }
        ClassFile files = ClassFile.of();
        ClassModel compiled = files.parse(Files.readAllBytes(classFile));
        Set<String> found = new HashSet<>();
        byte[] rendered = files.transformClass(compiled, (builder, element) -> {
            String text = element instanceof MethodModel method
                    && method.methodType().equalsString("()Ljava/lang/String;")
                    ? texts.get(method.methodName().stringValue()) : null;
            if (text != null) {
                MethodModel method = (MethodModel) element;
                found.add(method.methodName().stringValue());
                builder.withMethodBody(method.methodName(), method.methodType(), method.flags().flagsMask(),
                        code -> code.ldc(text).areturn());
            } else {
                builder.with(element);
            }
        });
        if (!found.equals(texts.keySet())) {
            throw new IllegalStateException(classFile + " lacks a static String method of " + texts.keySet());
        }
        Files.write(classFile, rendered);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
