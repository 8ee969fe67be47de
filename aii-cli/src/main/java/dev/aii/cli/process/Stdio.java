package dev.aii.cli.process;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the standard streams are connected to.
 *
 * @param stdinTerminal stdin is a terminal
 * @param stdinDevNull stdin is {@code /dev/null} (not piped content)
 * @param stdoutTerminal stdout is a terminal
 * @param stderrTerminal stderr is a terminal
 */
public record Stdio(boolean stdinTerminal, boolean stdinDevNull, boolean stdoutTerminal, boolean stderrTerminal) {

    /** The property the launcher sets: stdin {@code t|n|p} (terminal, /dev/null, other), then stdout and stderr {@code t|p}. */
    static final String PROPERTY = "aii.stdio";

    /** Whether stdin carries piped content: it is not a terminal and not {@code /dev/null}. */
    public boolean stdinPiped() {
        return !stdinTerminal && !stdinDevNull;
    }

    /** The streams of this process, as the launcher measured them, else as far as Java can tell. */
    public static Stdio detect() {
        String measured = System.getProperty(PROPERTY, "");
        if (measured.length() == 3 && "tnp".indexOf(measured.charAt(0)) >= 0
                && "tp".indexOf(measured.charAt(1)) >= 0 && "tp".indexOf(measured.charAt(2)) >= 0) {
            return new Stdio(measured.charAt(0) == 't', measured.charAt(0) == 'n',
                    measured.charAt(1) == 't', measured.charAt(2) == 't');
        }
        boolean in = isTerminal(0);
        return new Stdio(in, !in && isDevNull(0), isTerminal(1), isTerminal(2));
    }

    private static boolean isTerminal(int fd) {
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
            String name = target.toString();
            return name.startsWith("/dev/pts/") || name.startsWith("/dev/tty") || name.startsWith("/dev/console");
        } catch (Exception e) {
            java.io.Console console = System.console();
            return console != null && console.isTerminal();
        }
    }

    private static boolean isDevNull(int fd) {
        try {
            return Files.isSameFile(Path.of("/dev/fd/" + fd), Path.of("/dev/null"));
        } catch (Exception e) {
            return false;
        }
    }
}
