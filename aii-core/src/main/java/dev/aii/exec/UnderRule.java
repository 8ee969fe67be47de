package dev.aii.exec;

import dev.aii.policy.ResolvedCommand;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** The variables to set; empty when the command must not run, because its configuration could not be checked. */
    static Optional<Map<String, String>> environment(ResolvedCommand command, CommandRunner runner, Limits limits,
                                                     Cancellation cancellation) {
        switch (command.program()) {
            case "git":
                return GitLockdown.environment(runner, command.path(), command.arguments(), System.getenv(), limits,
                        cancellation);
            case "less":
                // less treats an empty LESSOPEN or LESSCLOSE as unset.
                return Optional.of(Map.of("LESSOPEN", "", "LESSCLOSE", ""));
            default:
                return Optional.of(Map.of());
        }
    }

    /** Why a command did not run when {@link #environment} is empty. */
    static final String UNCHECKED = "its configuration could not be checked in time";

    /** The programs that get an environment of their own under a rule. */
    static List<String> programs() {
        return List.of("git", "less");
    }
}
