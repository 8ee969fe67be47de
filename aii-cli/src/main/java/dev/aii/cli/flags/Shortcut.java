package dev.aii.cli.flags;

/**
 * A command line that needs no parser: exactly {@code --help} or {@code -h},
 * {@code --version}, {@code --list-allowed}, or nothing at all with stdin on
 * a terminal (which shows the help). Anything else goes through picocli.
 */
public enum Shortcut {
    HELP, VERSION, LIST_ALLOWED, NONE;

    public static Shortcut of(String[] args, boolean stdinTerminal) {
        if (args.length == 0) {
            return stdinTerminal ? HELP : NONE;
        }
        if (args.length > 1) {
            return NONE;
        }
        return switch (args[0]) {
            case "--help", "-h" -> HELP;
            case "--version" -> VERSION;
            case "--list-allowed" -> LIST_ALLOWED;
            default -> NONE;
        };
    }
}
