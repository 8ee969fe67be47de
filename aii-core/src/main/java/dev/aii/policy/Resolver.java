package dev.aii.policy;

import java.util.List;
import java.util.Optional;

/**
 * Finds the file a program name or path stands for. A name containing
 * {@code /} is a path, absolute or relative to the working directory; any
 * other name is looked up in the search path, skipping entries that are not
 * absolute, and the first executable regular file wins.
 */
final class Resolver {

    private Resolver() {
    }

    static Optional<ResolvedCommand> resolve(Environment env, String executable, List<String> arguments) {
        if (executable.contains("/")) {
            String path = PathNames.normalize(env.workingDirectory(), executable);
            return found(env, executable, path, arguments);
        }
        for (String entry : env.effectiveSearchPath().split(":", -1)) {
            if (!entry.startsWith("/")) {
                continue;
            }
            Optional<ResolvedCommand> hit = found(env, executable, PathNames.normalize("/", entry + "/" + executable), arguments);
            if (hit.isPresent()) {
                return hit;
            }
        }
        return Optional.empty();
    }

    private static Optional<ResolvedCommand> found(Environment env, String executable, String path, List<String> arguments) {
        String program = PathNames.lastComponent(path);
        if (program.isEmpty() || !env.probe().isExecutableRegularFile(path)) {
            return Optional.empty();
        }
        boolean trusted = Builtins.TRUSTED_DIRECTORIES.contains(PathNames.parent(path));
        return Optional.of(new ResolvedCommand(executable, path, program, trusted, arguments));
    }
}
