package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One implementation of a program in a {@link GetoptTable}: its option
 * syntax, its guarded options and operand forms, its path values, and what
 * reads below a directory.
 */
final class Implementation {

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
    record OperandForm(String form, Effect effect, GetoptTable.OperandRule rule) {
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
    static Implementation negatable(String name, String shortOptions, boolean permute, boolean stopsOnError,
                                    String... longSpecs) {
        return new Implementation(() -> OptionSyntax.of(name, shortOptions, permute, stopsOnError, longSpecs)
                .withNegations());
    }

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
    Implementation operands(String form, Effect effect, GetoptTable.OperandRule rule) {
        operandForms.add(new OperandForm(form, effect, rule));
        return this;
    }

    /** Guards an operand form that the options {@code keys} make (the vocabulary marks them guarded). */
    Implementation operands(String form, Effect effect, GetoptTable.OperandRule rule, String... keys) {
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
