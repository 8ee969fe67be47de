package dev.aii.exec;

import dev.aii.policy.ResolvedCommand;
import java.util.List;
import java.util.Map;

/**
 * The environment a command gets when it runs because a rule matched, for
 * the programs whose configuration or environment can make them run other
 * programs: git (see {@link GitLockdown}) and less, whose {@code LESSOPEN}
 * runs a preprocessor even when its output is not a terminal. Commands the
 * user approved at the prompt run with the environment as it is.
 */
final class UnderRule {

    private UnderRule() {
    }

    static Map<String, String> environment(ResolvedCommand command, CommandRunner runner, Limits limits,
                                           Cancellation cancellation) {
        switch (command.program()) {
            case "git":
                return GitLockdown.environment(runner, command.path(), command.arguments(), System.getenv(), limits,
                        cancellation);
            case "less":
                // less treats an empty LESSOPEN or LESSCLOSE as unset.
                return Map.of("LESSOPEN", "", "LESSCLOSE", "");
            default:
                return Map.of();
        }
    }

    /** The programs that get an environment of their own under a rule. */
    static List<String> programs() {
        return List.of("git", "less");
    }
}
