package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

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

    /**
     * A guarded option.
     *
     * @param key the option's key in the syntax (a letter, or {@code --name} for a long-only option)
     * @param effect what it does
     * @param phrase the note's words after {@code this form of <program>}; empty for the effect's own
     * @param onlyWhen when not empty, the option is guarded only when its value passes this test
     */
    record Row(String key, Effect effect, String phrase, java.util.function.Predicate<String> onlyWhen) {
        Row {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(effect, "effect");
            Objects.requireNonNull(phrase, "phrase");
            Objects.requireNonNull(onlyWhen, "onlyWhen");
        }
    }

    /**
     * A documented operand form.
     *
     * @param form how it is written, for docs/exec.md
     * @param effect what it does
     * @param rule how to find it
     */
    record OperandForm(String form, Effect effect, OperandRule rule) {
    }

    /** One implementation: its syntax and rows. */
    static final class Implementation {
        /** Parses the option strings: at the first use, since a process uses the tables of a few programs only. */
        private final Once<OptionSyntax> syntax;
        final Map<String, List<Row>> rows = new LinkedHashMap<>();
        final List<OperandForm> operandForms = new ArrayList<>();
        final List<String> recursiveKeys = new ArrayList<>();
        /** The options an operand rule looks at. */
        final List<String> ruleKeys = new ArrayList<>();
        /** The options whose value the program opens as a path, and how it reads it. */
        final Map<String, PathValue> pathKeys = new LinkedHashMap<>();
        boolean alwaysRecursive;
        int maxOperands = Integer.MAX_VALUE;

        Implementation(OptionSyntax syntax) {
            this.syntax = Once.of(syntax);
        }

        private Implementation(Supplier<OptionSyntax> spec) {
            this.syntax = new Once<>(() -> {
                OptionSyntax parsed = spec.get();
                for (String key : rows.keySet()) {
                    check(parsed, key);
                }
                for (String key : pathKeys.keySet()) {
                    check(parsed, key);
                }
                return parsed;
            });
        }

        /**
         * The option syntax, parsed at the first call; every guarded key is
         * checked against it then (a table naming an option its syntax lacks
         * is a mistake in the table, which GuardTablesDocTest reaches for
         * every table).
         */
        OptionSyntax syntax() {
            return syntax.get();
        }

        private static void check(OptionSyntax syntax, String key) {
            if (!syntax.knows(key)) {
                throw new IllegalArgumentException(syntax.implementation() + " has no option " + key);
            }
        }

        /** Guards the options {@code keys} with {@code effect}. */
        Implementation guard(Effect effect, String... keys) {
            for (String key : keys) {
                add(new Row(key, effect, "", v -> true));
            }
            return this;
        }

        /** Guards {@code key} with {@code effect} and its own note. */
        Implementation guardSaying(Effect effect, String phrase, String key) {
            add(new Row(key, effect, phrase, v -> true));
            return this;
        }

        /** Guards {@code key} when its value passes {@code when}, which {@code described} says in words. */
        Implementation guardWhen(Effect effect, String key, String described,
                                 java.util.function.Predicate<String> when) {
            add(new Row(key, effect, described, when));
            return this;
        }

        /** Guards an operand form. */
        Implementation operands(String form, Effect effect, OperandRule rule) {
            operandForms.add(new OperandForm(form, effect, rule));
            return this;
        }

        /** Guards an operand form that the options {@code keys} make (the vocabulary marks them guarded). */
        Implementation operands(String form, Effect effect, OperandRule rule, String... keys) {
            ruleKeys.addAll(Arrays.asList(keys));
            return operands(form, effect, rule);
        }

        /** Marks the options {@code keys} as taking a path the program opens, read as {@code read} says. */
        Implementation paths(PathValue read, String... keys) {
            OptionSyntax parsed = syntax.ifMade();
            for (String key : keys) {
                if (parsed != null) {
                    check(parsed, key);
                }
                pathKeys.put(key, read);
            }
            return this;
        }

        /** The options that make it read every file below a directory operand. */
        Implementation recursiveWith(String... keys) {
            recursiveKeys.addAll(Arrays.asList(keys));
            return this;
        }

        /** It takes at most {@code n} operands: more is a usage error. */
        Implementation maxOperands(int n) {
            maxOperands = n;
            return this;
        }

        /** It reads every file below a directory operand whatever its options. */
        Implementation recursive() {
            alwaysRecursive = true;
            return this;
        }

        /** This implementation's options as a dialect of the vocabulary. */
        Vocabulary.Dialect dialect() {
            OptionSyntax s = syntax();
            List<Vocabulary.Word> words = new ArrayList<>();
            String shorts = s.shortOptions();
            for (int i = 0; i < shorts.length(); i++) {
                char c = shorts.charAt(i);
                if (c != ':') {
                    String key = String.valueOf(c);
                    words.add(new Vocabulary.Word("-" + c, takes(s.shortValue(c)), pathKeys.get(key),
                            rows.containsKey(key) || ruleKeys.contains(key)));
                }
            }
            for (OptionSyntax.LongOption o : s.longOptions()) {
                words.add(new Vocabulary.Word("--" + o.name(), takes(o.value()), pathKeys.get(o.key()),
                        rows.containsKey(o.key()) || ruleKeys.contains(o.key())));
                if (s.negatable()) {
                    words.add(new Vocabulary.Word("--no-" + o.name(), Vocabulary.Takes.NONE, null, false));
                }
            }
            return new Vocabulary.Dialect(s.implementation(), words, "-", s.permute(), s.stopsOnError());
        }

        private static Vocabulary.Takes takes(OptionSyntax.Value value) {
            return switch (value) {
                case NONE -> Vocabulary.Takes.NONE;
                case REQUIRED -> Vocabulary.Takes.REQUIRED;
                case OPTIONAL -> Vocabulary.Takes.OPTIONAL;
            };
        }

        private void add(Row row) {
            OptionSyntax parsed = syntax.ifMade();
            if (parsed != null) {
                check(parsed, row.key());
            }
            rows.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row);
        }
    }

    private final String program;
    private final List<Implementation> implementations;

    GetoptTable(String program, List<Implementation> implementations) {
        this.program = program;
        this.implementations = List.copyOf(implementations);
    }

    /** Starts an implementation, see {@link OptionSyntax#of}. */
    static Implementation impl(String name, String shortOptions, boolean permute, boolean stopsOnError,
                               String... longSpecs) {
        return new Implementation(() -> OptionSyntax.of(name, shortOptions, permute, stopsOnError, longSpecs));
    }

    /**
     * Starts an implementation whose every long option also has its
     * negation {@code --no-NAME} (git's parse-options).
     */
    static Implementation negatableImpl(String name, String shortOptions, boolean permute, boolean stopsOnError,
                                        String... longSpecs) {
        return new Implementation(() -> OptionSyntax.of(name, shortOptions, permute, stopsOnError, longSpecs)
                .withNegations());
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

    private void readOne(Implementation impl, Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        boolean recursive = impl.alwaysRecursive;
        for (Getopt.Occurrence o : parsed.options()) {
            for (String key : o.keys()) {
                recursive |= impl.recursiveKeys.contains(key);
                for (Row row : impl.rows.getOrDefault(key, List.of())) {
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
        for (OperandForm form : impl.operandForms) {
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
            for (List<Row> rows : impl.rows.values()) {
                for (Row row : rows) {
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
            for (OperandForm form : impl.operandForms) {
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
