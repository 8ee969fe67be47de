package dev.aii.policy;

import dev.aii.policy.guard.PathNames;
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
        String searchPath = env.effectiveSearchPath();
        ProgramMemo memo = env.probe() instanceof ProgramMemo ? (ProgramMemo) env.probe() : null;
        if (memo != null) {
            String remembered = memo.recall(searchPath, executable);
            if (remembered != null) {
                return Optional.of(command(executable, remembered, arguments));
            }
        }
        for (int start = 0, end; start <= searchPath.length(); start = end + 1) {
            end = searchPath.indexOf(':', start);
            if (end < 0) {
                end = searchPath.length();
            }
            if (end == start || searchPath.charAt(start) != '/') {
                continue;
            }
            String entry = searchPath.substring(start, end);
            String path = PathNames.normalize("/", entry + "/" + executable);
            Optional<ResolvedCommand> hit = found(env, executable, path, arguments);
            if (hit.isPresent()) {
                if (memo != null) {
                    memo.remember(searchPath, executable, path);
                }
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
        return Optional.of(command(executable, path, arguments));
    }

    private static ResolvedCommand command(String executable, String path, List<String> arguments) {
        boolean trusted = Builtins.TRUSTED_DIRECTORIES.contains(PathNames.parent(path));
        return new ResolvedCommand(executable, path, PathNames.lastComponent(path), trusted, arguments);
    }
}
