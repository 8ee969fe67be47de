package dev.aii.cli.flags;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the command lines people type without picocli, whose classes
 * (compiled for Java 5) the startup cache cannot hold and which cost tens of
 * milliseconds to load at each start. It reads only what it is sure of: aii's
 * own flags spelled out in full or clustered ({@code -ijx}), {@code -f FILE},
 * {@code -fFILE}, {@code --file FILE}, {@code --file=FILE} and the same for
 * {@code --model} and {@code --model-file}, words, and {@code --}. Anything else (an unknown or
 * repeated option, a value that looks like an option, a missing value, a
 * lone {@code -}) gives up, and picocli reads the whole command line, errors
 * and their messages included. A differential test holds the two to the
 * same result on every command line this class accepts.
 */
public final class QuickFlags {

    private static final String FLAG_LETTERS = "ijmxh";

    private QuickFlags() {
    }

    /** The options {@code args} says, or null when picocli must read them. */
    public static Options parse(List<String> args) {
        Options o = new Options();
        List<String> words = new ArrayList<>();
        boolean endOfOptions = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (endOfOptions || !arg.startsWith("-")) {
                words.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                endOfOptions = true;
                continue;
            }
            if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg : arg.substring(0, eq);
                if (name.equals("--file") || name.equals("--model") || name.equals("--model-file")) {
                    String value;
                    if (eq >= 0) {
                        value = arg.substring(eq + 1);
                    } else if (i + 1 < args.size() && plainValue(args.get(i + 1))) {
                        value = args.get(++i);
                    } else {
                        return null;
                    }
                    if (!setValue(o, name, value)) {
                        return null;
                    }
                } else if (eq >= 0 || !setLong(o, arg)) {
                    return null;
                }
                continue;
            }
            if (arg.length() < 2) {
                return null;   // "-": picocli decides what a lone dash is
            }
            for (int p = 1; p < arg.length(); p++) {
                char c = arg.charAt(p);
                if (c == 'f') {
                    String value;
                    if (p + 1 < arg.length()) {
                        value = arg.substring(p + 1);
                        if (value.startsWith("=")) {
                            return null;
                        }
                    } else if (i + 1 < args.size() && plainValue(args.get(i + 1))) {
                        value = args.get(++i);
                    } else {
                        return null;
                    }
                    if (!setValue(o, "--file", value)) {
                        return null;
                    }
                    break;
                }
                if (FLAG_LETTERS.indexOf(c) < 0 || !setShort(o, c)) {
                    return null;
                }
            }
        }
        o.words = words;
        o.prompt = words.isEmpty() ? null : String.join(" ", words);
        return o;
    }

    /** A value taken from the next argument: one that picocli could not take for an option. */
    private static boolean plainValue(String next) {
        return !next.startsWith("-");
    }

    private static boolean setValue(Options o, String name, String value) {
        if (value.isEmpty()) {
            return false;
        }
        if (name.equals("--file")) {
            if (o.file != null) {
                return false;
            }
            o.file = value;
        } else if (name.equals("--model-file")) {
            if (o.modelFile != null) {
                return false;
            }
            o.modelFile = value;
        } else {
            if (o.model != null) {
                return false;
            }
            o.model = value;
        }
        return true;
    }

    /** Sets the flag {@code arg} names; false when it is no flag of aii's or was given already. */
    private static boolean setLong(Options o, String arg) {
        switch (arg) {
            case "--interactive":
                return setShort(o, 'i');
            case "--json":
                return setShort(o, 'j');
            case "--model-info":
                return setShort(o, 'm');
            case "--exec":
                return setShort(o, 'x');
            case "--help":
                return setShort(o, 'h');
            case "--list-allowed":
                if (o.listAllowed) {
                    return false;
                }
                o.listAllowed = true;
                return true;
            case "--reset-allowed":
                if (o.resetAllowed) {
                    return false;
                }
                o.resetAllowed = true;
                return true;
            case "--check":
                if (o.check) {
                    return false;
                }
                o.check = true;
                return true;
            case "--version":
                if (o.version) {
                    return false;
                }
                o.version = true;
                return true;
            default:
                return false;
        }
    }

    private static boolean setShort(Options o, char letter) {
        switch (letter) {
            case 'i':
                if (o.interactive) {
                    return false;
                }
                o.interactive = true;
                return true;
            case 'j':
                if (o.json) {
                    return false;
                }
                o.json = true;
                return true;
            case 'm':
                if (o.modelInfo) {
                    return false;
                }
                o.modelInfo = true;
                return true;
            case 'x':
                if (o.exec) {
                    return false;
                }
                o.exec = true;
                return true;
            case 'h':
                if (o.help) {
                    return false;
                }
                o.help = true;
                return true;
            default:
                return false;
        }
    }
}
