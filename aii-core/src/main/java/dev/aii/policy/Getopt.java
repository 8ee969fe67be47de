package dev.aii.policy;

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
 * <p>Where getopt would report a usage error, the reading notes it and goes on
 * in the way that finds more options rather than fewer: a letter the syntax
 * does not know is a flag (so the next argument is still read as an option or
 * operand), and an ambiguous long abbreviation stands for every option it
 * could mean and takes no value from the next argument.
 */
final class Getopt {

    /**
     * One option as read.
     *
     * @param keys what it is ({@link OptionSyntax.LongOption#key()} or the
     *             letter); several for an ambiguous abbreviation
     * @param value its value, empty when it has none or the value is missing
     */
    record Occurrence(Set<String> keys, Optional<String> value) {
    }

    /**
     * The options and operands in order, and what getopt would complain about.
     *
     * @param rejected an unknown option, an ambiguous abbreviation, or a value given to a long flag
     * @param valueMissing the last option needs a value and there is none
     */
    record Parsed(List<Occurrence> options, List<String> operands, boolean rejected, boolean valueMissing) {

        /** Whether an option with {@code key} was given. */
        boolean has(String key) {
            return options.stream().anyMatch(o -> o.keys().contains(key));
        }
    }

    /** The reading under way. */
    private static final class Reading {
        final List<Occurrence> options = new ArrayList<>();
        boolean rejected;
        boolean valueMissing;

        void add(Set<String> keys, Optional<String> value) {
            options.add(new Occurrence(Set.copyOf(keys), value));
        }
    }

    private Getopt() {
    }

    static Parsed parse(OptionSyntax syntax, List<String> args) {
        Reading reading = new Reading();
        List<String> operands = new ArrayList<>();
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i++);
            if (arg.equals("--")) {
                operands.addAll(args.subList(i, args.size()));
                break;
            }
            if (arg.startsWith("--")) {
                i = longOption(syntax, arg, args, i, reading);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                i = shortCluster(syntax, arg, args, i, reading);
            } else {
                operands.add(arg);
                if (!syntax.permute()) {
                    operands.addAll(args.subList(i, args.size()));
                    break;
                }
            }
        }
        return new Parsed(List.copyOf(reading.options), List.copyOf(operands), reading.rejected, reading.valueMissing);
    }

    /**
     * Reads {@code --name[=value]}; returns the index of the next argument to
     * read. A program without long options rejects it (plain getopt sees an
     * unknown option {@code -}).
     */
    private static int longOption(OptionSyntax syntax, String arg, List<String> args, int next, Reading out) {
        String body = arg.substring(2);
        int eq = body.indexOf('=');
        String name = eq < 0 ? body : body.substring(0, eq);
        Optional<String> attached = eq < 0 ? Optional.empty() : Optional.of(body.substring(eq + 1));
        List<OptionSyntax.LongOption> found = syntax.lookup(name);
        if (found.size() != 1) {
            Set<String> keys = new LinkedHashSet<>();
            found.forEach(o -> keys.add(o.key()));
            if (keys.isEmpty()) {
                keys.add("--" + name);
            }
            out.rejected = true;
            out.add(keys, attached);
            return next;
        }
        OptionSyntax.LongOption option = found.get(0);
        switch (option.value()) {
            case NONE -> out.rejected |= attached.isPresent();
            case OPTIONAL -> { }
            case REQUIRED -> {
                if (attached.isEmpty()) {
                    if (next < args.size()) {
                        out.add(Set.of(option.key()), Optional.of(args.get(next)));
                        return next + 1;
                    }
                    out.valueMissing = true;
                }
            }
        }
        out.add(Set.of(option.key()), attached);
        return next;
    }

    /** Reads {@code -abc}: flags until a letter that takes a value; returns the index of the next argument. */
    private static int shortCluster(OptionSyntax syntax, String arg, List<String> args, int next, Reading out) {
        int p = 1;
        while (p < arg.length()) {
            int c = arg.codePointAt(p);
            p += Character.charCount(c);
            Set<String> key = Set.of(new String(Character.toChars(c)));
            String rest = arg.substring(p);
            out.rejected |= !syntax.knowsShort(c);
            switch (syntax.shortValue(c)) {
                case NONE -> out.add(key, Optional.empty());
                case OPTIONAL -> {
                    out.add(key, rest.isEmpty() ? Optional.empty() : Optional.of(rest));
                    return next;
                }
                case REQUIRED -> {
                    if (!rest.isEmpty()) {
                        out.add(key, Optional.of(rest));
                        return next;
                    }
                    if (next < args.size()) {
                        out.add(key, Optional.of(args.get(next)));
                        return next + 1;
                    }
                    out.valueMissing = true;
                    out.add(key, Optional.empty());
                    return next;
                }
            }
        }
        return next;
    }
}
