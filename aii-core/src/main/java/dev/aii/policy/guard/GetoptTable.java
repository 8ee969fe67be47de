package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The guard table of a program whose implementations read options with
 * getopt or getopt_long: per implementation its option syntax, the options
 * that are guarded and what they do, and the operand forms that are.
 *
 * <p>aii cannot tell which implementation a path holds (GNU coreutils,
 * BSD/macOS, busybox), so a command is read with each, and with a
 * permuting implementation also as under {@code POSIXLY_CORRECT}; a form is
 * guarded when it is under any reading. A reading that stops with a usage
 * error before acting is harmless under that implementation and is dropped;
 * when every reading is dropped, no known implementation accepts the
 * arguments, and the command asks (it may be a version with options aii does
 * not know). An implementation that acts while still reading options asks on
 * any option it does not know.
 */
final class GetoptTable implements ProgramReader {

    /** A guarded operand form, given a whole reading. */
    @FunctionalInterface
    interface OperandRule {
        void check(Getopt.Parsed parsed, List<String> arguments, GuardHits out);
    }



    private final String program;
    private final List<Implementation> implementations;

    GetoptTable(String program, List<Implementation> implementations) {
        this.program = program;
        this.implementations = List.copyOf(implementations);
    }


    String program() {
        return program;
    }

    List<Implementation> implementations() {
        return implementations;
    }

    @Override
    public void read(List<String> arguments, GuardHits out) {
        boolean accepted = false;
        int lastError = -1;
        for (Implementation impl : implementations) {
            boolean permute = impl.syntax().permute();
            for (int pass = 0; pass < 2; pass++) {
                Getopt.Parsed parsed = Getopt.parse(impl.syntax(), arguments, permute);
                // A permuting implementation is read a second time as under POSIXLY_CORRECT, when that differs.
                boolean again = permute && parsed.optionAfterOperand() && !impl.syntax().ignoresPosixlyCorrect();
                permute = false;
                int tooMany = parsed.operands().size() > impl.maxOperands
                        ? parsed.operands().get(impl.maxOperands).index() : -1;
                if (parsed.usageError() || tooMany >= 0) {
                    lastError = Math.max(lastError, parsed.usageError() ? parsed.errorIndex() : tooMany);
                    // A program may open a path value as it meets it, before it reports the error (GNU du -X,
                    // grep -f): those are checked whichever reading stands.
                    pathValues(impl, parsed, out);
                    if (impl.syntax().stopsOnError()) {
                        if (!again) {
                            break;
                        }
                        continue;
                    }
                    if (parsed.usageError()) {
                        out.unknown(parsed.errorIndex(), parsed.errorToken());
                    }
                }
                accepted = true;
                readOne(impl, parsed, arguments, out);
                if (!again) {
                    break;
                }
            }
        }
        if (!accepted) {
            out.rejected(lastError);
        }
    }

    /** The path values of a reading, checked as such. */
    private static void pathValues(Implementation impl, Getopt.Parsed parsed, GuardHits out) {
        for (Getopt.Occurrence o : parsed.options()) {
            for (String key : o.keys()) {
                PathValue read = impl.pathKeys.get(key);
                if (read != null && o.value().isPresent()) {
                    out.pathValue(o.index(), o.value().get(), read);
                    break;
                }
            }
        }
    }

    private void readOne(Implementation impl, Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        boolean recursive = impl.alwaysRecursive;
        for (Getopt.Occurrence o : parsed.options()) {
            for (String key : o.keys()) {
                recursive |= impl.recursiveKeys.contains(key);
                for (Implementation.Row row : impl.rows.getOrDefault(key, List.of())) {
                    if (row.onlyWhen().test(o.value().orElse(""))) {
                        if (row.phrase().isEmpty() || row.phrase().startsWith("when ")) {
                            out.effect(o.index(), row.effect());
                        } else {
                            out.effect(o.index(), row.phrase());
                        }
                    }
                }
            }
        }
        for (Implementation.OperandForm form : impl.operandForms) {
            form.rule().check(parsed, arguments, out);
        }
        for (Getopt.Occurrence o : parsed.options()) {
            Optional<String> value = o.value();
            if (value.isPresent()) {
                PathValue read = null;
                for (String key : o.keys()) {
                    read = read == null ? impl.pathKeys.get(key) : read;
                }
                if (read != null) {
                    out.pathValue(o.index(), value.get(), read);
                } else {
                    out.path(o.index(), value.get(), false);
                }
            }
        }
        for (Getopt.Operand operand : parsed.operands()) {
            out.path(operand.index(), operand.value(), recursive);
        }
    }

    @Override
    public List<TableRow> rows() {
        // Rows that agree in everything but the implementation are listed once, naming all of them.
        Map<String, List<String>> byForm = new LinkedHashMap<>();
        Map<String, Effect> effects = new LinkedHashMap<>();
        for (Implementation impl : implementations) {
            for (List<Implementation.Row> rows : impl.rows.values()) {
                for (Implementation.Row row : rows) {
                    List<String> spelled = new ArrayList<>();
                    for (String spelling : impl.syntax().spellings(row.key())) {
                        spelled.add("`" + spelling + "`");
                    }
                    String forms = String.join(", ", spelled)
                            + (row.phrase().isEmpty() ? "" : " (" + row.phrase() + ")");
                    String id = forms + "\0" + row.effect();
                    effects.put(id, row.effect());
                    byForm.computeIfAbsent(id, k -> new ArrayList<>()).add(impl.syntax().implementation());
                }
            }
            for (Implementation.OperandForm form : impl.operandForms) {
                String id = form.form() + "\0" + form.effect();
                effects.put(id, form.effect());
                byForm.computeIfAbsent(id, k -> new ArrayList<>()).add(impl.syntax().implementation());
            }
        }
        List<TableRow> out = new ArrayList<>();
        byForm.forEach((id, impls) -> out.add(new TableRow(id.substring(0, id.indexOf('\0')), effects.get(id),
                String.join(", ", impls))));
        return out;
    }

    @Override
    public Vocabulary vocabulary() {
        List<Vocabulary.Dialect> dialects = new ArrayList<>();
        for (Implementation impl : implementations) {
            dialects.add(impl.dialect());
        }
        return Vocabulary.of(dialects);
    }

    /** An operand rule: every operand after the first {@code n} (not counting {@code -}) has {@code effect}. */
    static OperandRule operandsAfter(int n, Effect effect) {
        return (parsed, arguments, out) -> {
            List<Getopt.Operand> operands = parsed.operands();
            for (int i = n; i < operands.size(); i++) {
                if (!operands.get(i).value().equals("-")) {
                    out.effect(operands.get(i).index(), effect);
                }
            }
        };
    }

    /**
     * An operand rule: every use with arguments has {@code effect}, spelled by
     * the first argument (so a rule must name at least that to waive it).
     */
    static OperandRule always(Effect effect) {
        return (parsed, arguments, out) -> {
            if (!arguments.isEmpty()) {
                out.effect(0, effect);
            }
        };
    }

    /**
     * An argument rule: an argument that matches {@code pattern} among the
     * leading ones that could still be options (before a {@code --} and
     * before the first that does not start with {@code -} or {@code +}) has
     * {@code effect}: where the obsolete {@code tail +1f} forms are read.
     */
    static OperandRule leadingArgumentsMatching(java.util.regex.Pattern pattern, Effect effect) {
        return (parsed, arguments, out) -> {
            for (int i = 0; i < arguments.size(); i++) {
                String a = arguments.get(i);
                if (a.equals("--") || a.length() < 2 || (a.charAt(0) != '-' && a.charAt(0) != '+')) {
                    return;
                }
                if (pattern.matcher(a).matches()) {
                    out.effect(i, effect);
                }
            }
        };
    }

}
