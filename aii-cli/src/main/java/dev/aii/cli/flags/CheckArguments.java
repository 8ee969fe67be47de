package dev.aii.cli.flags;

import java.util.List;
import java.util.Optional;

/**
 * Takes the command off a {@code --check} command line before picocli reads
 * it. {@code aii [OPTION...] --check [OPTION...] [--] PROGRAM [ARG...]}: aii's
 * own options may come before and after {@code --check}; the first argument
 * after {@code --check} that is not one of them (or the argument after a
 * {@code --} there) is PROGRAM, and everything after PROGRAM belongs to it,
 * so {@code aii --check date -s 2020} asks about {@code date -s 2020}, and
 * PROGRAM's arguments stay as they are (never joined like a prompt's words).
 * Without {@code --check} (or with it only after a {@code --}, where it is a
 * word of the prompt) nothing is taken off, and the words are the prompt.
 *
 * @param own the arguments for picocli, {@code --check} among them
 * @param command PROGRAM and its arguments when {@code --check} was given (empty list when PROGRAM is missing)
 */
public record CheckArguments(List<String> own, Optional<List<String>> command) {

    static final String FLAG = "--check";

    public static CheckArguments split(List<String> args) {
        boolean checking = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--")) {
                return checking
                        ? new CheckArguments(args.subList(0, i), Optional.of(args.subList(i + 1, args.size())))
                        : new CheckArguments(args, Optional.empty());
            }
            if (arg.equals(FLAG)) {
                checking = true;
            } else if (takesNextAsValue(arg)) {
                i++;
            } else if (!(arg.startsWith("-") && arg.length() > 1) && checking) {
                return new CheckArguments(args.subList(0, i), Optional.of(args.subList(i, args.size())));
            }
        }
        return new CheckArguments(args, checking ? Optional.of(List.of()) : Optional.empty());
    }

    /** Whether {@code arg} is {@code --file}, {@code --model} or a cluster of aii's short flags ending in {@code f}. */
    private static boolean takesNextAsValue(String arg) {
        if (arg.equals("--file") || arg.equals("--model") || arg.equals("--model-file")) {
            return true;
        }
        if (!arg.startsWith("-") || arg.startsWith("--") || arg.length() < 2) {
            return false;
        }
        for (int i = 1; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c == 'f') {
                return i == arg.length() - 1;
            }
            if ("hijmx".indexOf(c) < 0) {
                return false;
            }
        }
        return false;
    }
}
