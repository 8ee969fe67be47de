package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Objects;

/**
 * How one implementation of a program reads its options: the short options
 * as a {@code getopt} option string, the long options of {@code getopt_long},
 * whether options may follow operands (GNU argument permutation), and whether
 * a usage error stops the program before it acts on anything.
 *
 * @param implementation a name for humans, e.g. {@code GNU coreutils date}
 * @param shortOptions the getopt string: a letter alone is a flag, followed by
 *                     {@code :} it takes a value, by {@code ::} an optional one
 *                     that must be attached ({@code -Ihours})
 * @param longOptions the long options; empty when the program has none
 * @param permute whether options are still read after the first operand
 * @param stopsOnError whether the program exits with a usage message, having
 *                     done nothing, when getopt reports an unknown option, an
 *                     ambiguous abbreviation, a missing value or a value given
 *                     to a flag (true of date: it acts after reading all
 *                     options; not of file, which reads {@code -f} lists as it
 *                     meets them and only complains at the end)
 */
final class OptionSyntax {

    private final String implementation;
    private final String shortOptions;
    private final List<LongOption> longOptions;
    private final boolean permute;
    private final boolean stopsOnError;
    private final boolean negatable;
    /** The long options by exact name, for the common case of an option written out in full. */
    private final Map<String, LongOption> byName = new HashMap<>();

    /** Whether an option takes a value. */
    enum Value { NONE, REQUIRED, OPTIONAL }

    /**
     * A long option.
     *
     * @param name its name without the leading {@code --}
     * @param key what it is: the letter of the short option it stands for, or
     *            {@code --name} for a long-only option
     * @param value whether it takes a value
     */
    record LongOption(String name, String key, Value value) {
        LongOption {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        /**
         * Reads {@code name[=letter][:|::]}: {@code set=s:} is {@code --set}
         * standing for {@code -s} with a value, {@code rfc-3339:} a long-only
         * option with a value, {@code debug} a long-only flag.
         */
        static LongOption of(String spec) {
            Value value = spec.endsWith("::") ? Value.OPTIONAL : spec.endsWith(":") ? Value.REQUIRED : Value.NONE;
            String rest = spec.substring(0, spec.length() - switch (value) {
                case NONE -> 0;
                case REQUIRED -> 1;
                case OPTIONAL -> 2;
            });
            int eq = rest.indexOf('=');
            String name = eq < 0 ? rest : rest.substring(0, eq);
            String key = eq < 0 ? "--" + name : rest.substring(eq + 1);
            return new LongOption(name, key, value);
        }
    }

    OptionSyntax(String implementation, String shortOptions, List<LongOption> longOptions, boolean permute,
                 boolean stopsOnError, boolean negatable) {
        this.implementation = Objects.requireNonNull(implementation, "implementation");
        this.shortOptions = Objects.requireNonNull(shortOptions, "shortOptions");
        this.longOptions = List.copyOf(longOptions);
        this.permute = permute;
        this.stopsOnError = stopsOnError;
        this.negatable = negatable;
        for (LongOption option : this.longOptions) {
            byName.putIfAbsent(option.name(), option);
        }
    }

    String implementation() {
        return implementation;
    }

    String shortOptions() {
        return shortOptions;
    }

    List<LongOption> longOptions() {
        return longOptions;
    }

    boolean permute() {
        return permute;
    }

    boolean stopsOnError() {
        return stopsOnError;
    }

    /** Whether every long option also has its negation {@code --no-NAME}. */
    boolean negatable() {
        return negatable;
    }

    /** Whether options after operands are read even under {@code POSIXLY_CORRECT}: git's parse-options. */
    boolean ignoresPosixlyCorrect() {
        return negatable;
    }

    /** A syntax from a getopt string and long option specs (see {@link LongOption#of}). */
    static OptionSyntax of(String implementation, String shortOptions, boolean permute, boolean stopsOnError,
                           String... longSpecs) {
        return new OptionSyntax(implementation, shortOptions,
                Arrays.stream(longSpecs).map(LongOption::of).toList(), permute, stopsOnError, false);
    }

    /**
     * This syntax as git's parse-options reads it: {@code --no-NAME} known
     * for every long option, and options read after operands whatever
     * {@code POSIXLY_CORRECT} says (git does not look at it).
     */
    OptionSyntax withNegations() {
        return new OptionSyntax(implementation, shortOptions, longOptions, permute, stopsOnError, true);
    }

    /** Whether {@code c} is one of the program's short options. */
    boolean knowsShort(int c) {
        return c != ':' && shortOptions.indexOf(c) >= 0;
    }

    /** Whether {@code key} is an option of this syntax: a known letter, or a long option's key. */
    boolean knows(String key) {
        if (key.codePointCount(0, key.length()) == 1 && knowsShort(key.codePointAt(0))) {
            return true;
        }
        for (LongOption option : longOptions) {
            if (option.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** What the short option {@code c} takes; a letter the program does not know is read as a flag. */
    Value shortValue(int c) {
        int at = knowsShort(c) ? shortOptions.indexOf(c) : -1;
        if (at < 0 || at + 1 >= shortOptions.length() || shortOptions.charAt(at + 1) != ':') {
            return Value.NONE;
        }
        return at + 2 < shortOptions.length() && shortOptions.charAt(at + 2) == ':' ? Value.OPTIONAL : Value.REQUIRED;
    }

    /**
     * The long options {@code name} can stand for, as {@code getopt_long}
     * decides: an exact name wins; otherwise every option whose name starts
     * with {@code name}, where options that mean the same (same key, same
     * value kind) count once. One result is a match, several an ambiguous
     * abbreviation, none an unknown option.
     */
    List<LongOption> lookup(String name) {
        List<LongOption> found = lookupAsWritten(name);
        if (found.isEmpty() && negatable && name.startsWith("no-") && !lookupAsWritten(name.substring(3)).isEmpty()) {
            return List.of(new LongOption(name, "--" + name, Value.NONE));
        }
        return found;
    }

    private List<LongOption> lookupAsWritten(String name) {
        LongOption exact = byName.get(name);
        if (exact != null) {
            return List.of(exact);
        }
        List<LongOption> candidates = new ArrayList<>();
        for (LongOption option : longOptions) {
            if (option.name().equals(name)) {
                return List.of(option);
            }
            if (option.name().startsWith(name) && candidates.stream().noneMatch(c -> sameMeaning(c, option))) {
                candidates.add(option);
            }
        }
        return List.copyOf(candidates);
    }

    /**
     * How the option {@code key} can be written: {@code -o} for a short
     * option, {@code --output} for each long option that stands for it (a
     * value-taking one as {@code --output=V}), in table order.
     */
    List<String> spellings(String key) {
        List<String> out = new ArrayList<>();
        if (key.codePointCount(0, key.length()) == 1 && knowsShort(key.codePointAt(0))) {
            out.add("-" + key + switch (shortValue(key.codePointAt(0))) {
                case NONE -> "";
                case REQUIRED -> " V";
                case OPTIONAL -> "[V]";
            });
        }
        for (LongOption option : longOptions) {
            if (option.key().equals(key) || option.key().equals("--" + key)) {
                out.add("--" + option.name() + switch (option.value()) {
                    case NONE -> "";
                    case REQUIRED -> "=V";
                    case OPTIONAL -> "[=V]";
                });
            }
        }
        return out;
    }

    private static boolean sameMeaning(LongOption a, LongOption b) {
        return a.key().equals(b.key()) && a.value() == b.value();
    }
}
