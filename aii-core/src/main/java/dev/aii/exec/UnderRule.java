package dev.aii.exec;

import dev.aii.policy.ResolvedCommand;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The environment a command gets when it runs because a rule matched, for
 * the programs whose configuration or environment can make them run other
 * programs: git (see {@link GitLockdown}), and less, whose {@code LESSOPEN}
 * runs a preprocessor even when its output is not a terminal. Commands the
 * user approved at the prompt run with the environment as it is.
 */
final class UnderRule {

    /** How a command run by a rule goes on. */
    sealed interface Setup {
        /** Run it with these variables set. */
        record Ready(Map<String, String> environment) implements Setup {
            public Ready {
                environment = Map.copyOf(environment);
            }
        }

        /** Do not run it: its configuration could not be checked ({@link #UNCHECKED}). */
        record Unchecked() implements Setup {
        }

        /** Ask, as for a guarded form, with this note: aii cannot give it the environment it needs. */
        record Ask(String reason) implements Setup {
            public Ask {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    private UnderRule() {
    }

    /** How {@code command}, which a rule allows, runs; {@code versions} remembers which gits are new enough. */
    static Setup prepare(ResolvedCommand command, CommandRunner runner, Limits limits, Cancellation cancellation,
                         GitVersion versions) {
        switch (command.program()) {
            case "git": {
                Map<String, String> inherited = System.getenv();
                Optional<String> old = versions.tooOld(runner, command.path(),
                        GitLockdown.with(GitLockdown.CONFIG, inherited), limits, cancellation);
                if (old.isPresent()) {
                    return new Setup.Ask(old.get());
                }
                return GitLockdown.setup(runner, command.path(), command.arguments(), inherited, limits,
                        cancellation);
            }
            default:
                // less treats an empty LESSOPEN or LESSCLOSE as unset; more and pager may be less by another name.
                return new Setup.Ready(isLess(command) ? Map.of("LESSOPEN", "", "LESSCLOSE", "") : Map.of());
        }
    }

    /**
     * Whether the command runs less: by its name, or by one that may lead to
     * it ({@code more} is less on macOS, Debian's {@code pager} an
     * alternative), where the path's links end in less.
     */
    static boolean isLess(ResolvedCommand command) {
        if (command.program().equals("less")) {
            return true;
        }
        try {
            java.nio.file.Path real = java.nio.file.Path.of(command.path()).toRealPath();
            return real.getFileName() != null && real.getFileName().toString().equals("less");
        } catch (java.io.IOException | RuntimeException e) {
            return LESS_NAMES.contains(command.program());
        }
    }

    private static final List<String> LESS_NAMES = List.of("more", "pager", "sensible-pager");

    /** Why a command did not run when its setup is {@link Setup.Unchecked}. */
    static final String UNCHECKED = "its configuration could not be checked in time";

    /** The programs that get an environment of their own under a rule. */
    static List<String> programs() {
        return List.of("git", "less");
    }
}
