package dev.aii.policy.guard;

import java.util.List;

/**
 * The guard table of {@code xxd} (vim's), which reads its options by their
 * first two characters ({@code -cols} is {@code -c}, {@code -autoskip} is
 * {@code -a}, and {@code --cols} is {@code -cols}) with values attached or
 * next, until the first argument that is not an option: everything after it
 * is an operand, {@code -e} included. Its second operand is an output file,
 * written (truncated) even without {@code -r}. An option it does not know,
 * or a third operand, is a usage error.
 */
final class XxdReader implements ProgramReader {

    private static final String FLAGS = "abCEeihprduv";
    private static final String VALUES = "cglnosR";
    private static final List<String> LONG_NAMES = List.of("-cols", "-groupsize", "-len", "-name", "-offset",
            "-seek", "-autoskip", "-bits", "-capitalize", "-EBCDIC", "-include", "-help", "-postscript", "-plain",
            "-ps", "-revert", "-decimal", "-version", "-uppercase");

    /** After a value option's letter, what makes xxd take its value from the next argument ({@code -cols}). */
    private static final java.util.Map<Character, List<String>> NAMED = java.util.Map.of(
            'c', List.of("ols"), 'g', List.of("roupsize"), 'l', List.of("en"), 'n', List.of("ame"),
            'o', List.of("ffset"), 's', List.of("eek", "kip"), 'R', List.of());

    @Override
    public void read(List<String> args, GuardHits out) {
        int operands = 0;
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (options && a.equals("--")) {
                options = false;
                continue;
            }
            if (options && a.startsWith("-") && a.length() > 1) {
                String pp = a.startsWith("--") && a.length() > 2 ? a.substring(1) : a;
                char c = pp.charAt(1);
                String rest = pp.substring(2);
                if (c == 'c' && rest.startsWith("apitalize")) {
                    continue;
                }
                if (VALUES.indexOf(c) >= 0) {
                    boolean named = NAMED.get(c).stream().anyMatch(rest::startsWith);
                    if (rest.isEmpty() || named) {
                        if (i + 1 >= args.size()) {
                            out.rejected(i);
                            return;
                        }
                        out.path(i, args.get(++i), false);
                    } else {
                        out.path(i, rest, false);
                    }
                } else if (FLAGS.indexOf(c) < 0) {
                    out.rejected(i);
                    return;
                }
                continue;
            }
            options = false;
            operands++;
            if (operands > 2) {
                out.rejected(i);
                return;
            }
            if (operands == 2 && !a.equals("-")) {
                out.effect(i, Effect.WRITE);
            }
            out.path(i, a, false);
        }
    }

    @Override
    public Vocabulary vocabulary() {
        List<Vocabulary.Word> words = new java.util.ArrayList<>();
        for (char c : (FLAGS + VALUES).toCharArray()) {
            words.add(new Vocabulary.Word("-" + c, VALUES.indexOf(c) >= 0 ? Vocabulary.Takes.REQUIRED
                    : Vocabulary.Takes.NONE, null, false));
        }
        for (String name : LONG_NAMES) {
            words.add(new Vocabulary.Word(name, VALUES.indexOf(name.charAt(1)) >= 0 && !name.equals("-capitalize")
                    ? Vocabulary.Takes.REQUIRED
                    : Vocabulary.Takes.NONE, null, false));
        }
        return Vocabulary.of(List.of(new Vocabulary.Dialect("vim's xxd", words, null, false, true)));
    }

    @Override
    public List<TableRow> rows() {
        return List.of(new TableRow("a second operand (the output file), with or without `-r`", Effect.WRITE,
                "vim's xxd"));
    }
}
