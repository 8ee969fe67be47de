package dev.aii.policy.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an argument list the way {@code getopt}/{@code getopt_long} would for
 * one {@link OptionSyntax}, without running anything: clustered short flags
 * ({@code -Cm}), values attached or in the next argument ({@code -mx},
 * {@code -m x}, {@code --set=x}, {@code --set x}), unique long abbreviations
 * ({@code --se}), {@code --} ending options, and permutation where the syntax
 * says so.
 *
 * <p>Where getopt would report a usage error, the reading notes the first one
 * and goes on in the way that finds more options rather than fewer: a letter
 * the syntax does not know is a flag (so the next argument is still read as
 * an option or operand), and an ambiguous long abbreviation stands for every
 * option it could mean and takes no value from the next argument.
 */
final class Getopt {

    /**
     * One option as read.
     *
     * @param keys what it is ({@link OptionSyntax.LongOption#key()} or the
     *             letter); several for an ambiguous abbreviation
     * @param value its value, empty when it has none or the value is missing
     * @param index the index of the argument the option is in
     */
    record Occurrence(Set<String> keys, Optional<String> value, int index) {
    }

    /**
     * An operand as read.
     *
     * @param value the argument
     * @param index its index among the arguments
     */
    record Operand(String value, int index) {
    }

    /**
     * The options and operands in order, and the first thing getopt would complain about.
     *
     * @param rejected an unknown option, an ambiguous abbreviation, or a value given to a long flag
     * @param valueMissing the last option needs a value and there is none
     * @param errorIndex the index of the argument of the first such error, or -1
     * @param errorToken how the first error was spelled ({@code -Q}, {@code --nope}), or empty
     * @param optionAfterOperand whether an option came after an operand (so reading without
     *                           permutation would differ)
     */
    record Parsed(List<Occurrence> options, List<Operand> operands, boolean rejected, boolean valueMissing,
                  int errorIndex, String errorToken, boolean optionAfterOperand) {

        /** Whether an option with {@code key} was given. */
        boolean has(String key) {
            for (Occurrence o : options) {
                if (o.keys().contains(key)) {
                    return true;
                }
            }
            return false;
        }

        /** Whether getopt would report a usage error. */
        boolean usageError() {
            return rejected || valueMissing;
        }

        /** The operands' values. */
        List<String> operandValues() {
            List<String> values = new ArrayList<>(operands.size());
            for (Operand o : operands) {
                values.add(o.value());
            }
            return values;
        }
    }

    /** The reading under way. */
    private static final class Reading {
        final List<Occurrence> options = new ArrayList<>();
        boolean rejected;
        boolean valueMissing;
        int errorIndex = -1;
        String errorToken = "";

        void add(Set<String> keys, Optional<String> value, int index) {
            options.add(new Occurrence(Set.copyOf(keys), value, index));
        }

        void error(int index, String token) {
            if (errorIndex < 0) {
                errorIndex = index;
                errorToken = token;
            }
        }
    }

    private Getopt() {
    }

    static Parsed parse(OptionSyntax syntax, List<String> args) {
        return parse(syntax, args, syntax.permute());
    }

    /** Reads {@code args}; {@code permute} false reads as under {@code POSIXLY_CORRECT} (options end at the first operand). */
    static Parsed parse(OptionSyntax syntax, List<String> args, boolean permute) {
        Reading reading = new Reading();
        List<Operand> operands = new ArrayList<>();
        boolean optionAfterOperand = false;
        int i = 0;
        while (i < args.size()) {
            int at = i;
            String arg = args.get(i++);
            optionAfterOperand |= !operands.isEmpty() && arg.startsWith("-") && arg.length() > 1;
            if (arg.equals("--")) {
                for (int j = i; j < args.size(); j++) {
                    operands.add(new Operand(args.get(j), j));
                }
                break;
            }
            if (arg.startsWith("--")) {
                i = longOption(syntax, arg, args, at, reading);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                i = shortCluster(syntax, arg, args, at, reading);
            } else {
                operands.add(new Operand(arg, at));
                if (!permute) {
                    for (int j = i; j < args.size(); j++) {
                        operands.add(new Operand(args.get(j), j));
                    }
                    break;
                }
            }
        }
        return new Parsed(List.copyOf(reading.options), List.copyOf(operands), reading.rejected,
                reading.valueMissing, reading.errorIndex, reading.errorToken, optionAfterOperand);
    }

    /**
     * Reads {@code --name[=value]} at {@code at}; returns the index of the next
     * argument to read. A program without long options rejects it (plain
     * getopt sees an unknown option {@code -}).
     */
    private static int longOption(OptionSyntax syntax, String arg, List<String> args, int at, Reading out) {
        int next = at + 1;
        String body = arg.substring(2);
        int eq = body.indexOf('=');
        String name = eq < 0 ? body : body.substring(0, eq);
        Optional<String> attached = eq < 0 ? Optional.empty() : Optional.of(body.substring(eq + 1));
        List<OptionSyntax.LongOption> found = syntax.lookup(name);
        if (found.size() != 1) {
            Set<String> keys = new LinkedHashSet<>();
            for (OptionSyntax.LongOption o : found) {
                keys.add(o.key());
            }
            if (keys.isEmpty()) {
                keys.add("--" + name);
            }
            out.rejected = true;
            out.error(at, "--" + name);
            out.add(keys, attached, at);
            return next;
        }
        OptionSyntax.LongOption option = found.get(0);
        switch (option.value()) {
            case NONE:
                if (attached.isPresent()) {
                    out.rejected = true;
                    out.error(at, "--" + name);
                }
                break;
            case OPTIONAL:
                break;
            case REQUIRED:
                if (attached.isEmpty()) {
                    if (next < args.size()) {
                        out.add(Set.of(option.key()), Optional.of(args.get(next)), at);
                        return next + 1;
                    }
                    out.valueMissing = true;
                    out.error(at, "--" + name);
                }
                break;
            default:
                throw new AssertionError(option.value());
        }
        out.add(Set.of(option.key()), attached, at);
        return next;
    }

    /** Reads {@code -abc} at {@code at}: flags until a letter that takes a value; returns the index of the next argument. */
    private static int shortCluster(OptionSyntax syntax, String arg, List<String> args, int at, Reading out) {
        int next = at + 1;
        int p = 1;
        while (p < arg.length()) {
            int c = arg.codePointAt(p);
            p += Character.charCount(c);
            String letter = new String(Character.toChars(c));
            Set<String> key = Set.of(letter);
            String rest = arg.substring(p);
            if (!syntax.knowsShort(c)) {
                out.rejected = true;
                out.error(at, "-" + letter);
            }
            switch (syntax.shortValue(c)) {
                case NONE:
                    out.add(key, Optional.empty(), at);
                    break;
                case OPTIONAL:
                    out.add(key, rest.isEmpty() ? Optional.empty() : Optional.of(rest), at);
                    return next;
                case REQUIRED:
                    if (!rest.isEmpty()) {
                        out.add(key, Optional.of(rest), at);
                        return next;
                    }
                    if (next < args.size()) {
                        out.add(key, Optional.of(args.get(next)), at);
                        return next + 1;
                    }
                    out.valueMissing = true;
                    out.error(at, "-" + letter);
                    out.add(key, Optional.empty(), at);
                    return next;
                default:
                    throw new AssertionError(c);
            }
        }
        return next;
    }
}
