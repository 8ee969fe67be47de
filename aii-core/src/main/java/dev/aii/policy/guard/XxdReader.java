package dev.aii.policy.guard;

import java.util.List;

/**
 * The guard table of {@code xxd} (vim's), which reads its options by their
 * first two characters ({@code -cols} is {@code -c}, {@code -autoskip} is
 * {@code -a}) with values attached or next: its second operand is an output
 * file, written (truncated) even without {@code -r}. An option it does not
 * know, or a third operand, is a usage error.
 */
final class XxdReader implements ProgramReader {

    private static final String FLAGS = "abCEeihprduvR";
    private static final String VALUES = "cglnosR";
    private static final List<String> LONG_NAMES = List.of("-cols", "-groupsize", "-len", "-name", "-offset",
            "-seek", "-autoskip", "-bits", "-capitalize", "-EBCDIC", "-include", "-help", "-postscript", "-plain",
            "-ps", "-revert", "-decimal", "-version", "-uppercase");

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
                char c = a.charAt(1);
                boolean named = LONG_NAMES.contains(a);
                if (VALUES.indexOf(c) >= 0 && (a.length() == 2 || named)) {
                    if (i + 1 >= args.size()) {
                        out.rejected(i);
                        return;
                    }
                    out.path(i, args.get(++i), false);
                } else if (VALUES.indexOf(c) >= 0) {
                    out.path(i, a.substring(2), false);
                } else if (FLAGS.indexOf(c) < 0) {
                    out.rejected(i);
                    return;
                }
                continue;
            }
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
            words.add(new Vocabulary.Word(name, VALUES.indexOf(name.charAt(1)) >= 0 ? Vocabulary.Takes.REQUIRED
                    : Vocabulary.Takes.NONE, null, false));
        }
        return Vocabulary.of(List.of(new Vocabulary.Dialect("vim's xxd", words, null, false)));
    }

    @Override
    public List<TableRow> rows() {
        return List.of(new TableRow("a second operand (the output file), with or without `-r`", Effect.WRITE,
                "vim's xxd"));
    }
}
