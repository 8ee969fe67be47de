package dev.aii.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A command whose program was found.
 *
 * @param executable the program as the model gave it
 * @param path the absolute, lexically normalised path that is executed
 * @param program the program name: the last component of {@code path}
 * @param trusted whether {@code path}'s parent is exactly a trusted directory
 * @param arguments the arguments, without the program
 */
public record ResolvedCommand(String executable, String path, String program, boolean trusted,
                              List<String> arguments) {

    public ResolvedCommand {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must be absolute: " + path);
        }
        if (program == null || program.isEmpty()) {
            throw new IllegalArgumentException("program name must not be empty: " + path);
        }
        arguments = List.copyOf(arguments);
    }

    /**
     * The argv shown to the user: the program name when trusted (even if the
     * model gave a full path), else the full path; then the arguments.
     */
    public List<String> displayArgv() {
        List<String> argv = new ArrayList<>(arguments.size() + 1);
        argv.add(trusted ? program : path);
        argv.addAll(arguments);
        return List.copyOf(argv);
    }

    /** {@link #displayArgv()} rendered for a terminal. */
    public String display() {
        return Render.render(displayArgv());
    }
}
