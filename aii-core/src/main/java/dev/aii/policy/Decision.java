package dev.aii.policy;

import java.util.Optional;

/** What the policy says about one command. */
public sealed interface Decision {

    /** A rule allows the command: run it without asking. */
    record Allow(ResolvedCommand command, Rule rule) implements Decision {
    }

    /**
     * No rule allows the command: a human must decide.
     *
     * @param command the resolved command
     * @param prefix the prefix that answering "always" would store, derived from the command
     * @param always whether and why "always" is offered
     */
    record Ask(ResolvedCommand command, Rule prefix, Always always) implements Decision {

        /** The prefix "always" would store, when "always" is offered. */
        public Optional<Rule> alwaysPrefix() {
            return always == Always.OFFERED ? Optional.of(prefix) : Optional.empty();
        }
    }

    /** The command cannot run; {@code message} is the exact text returned to the model. */
    record Refuse(Refusal reason, String message) implements Decision {
    }

    /** Whether "always" is offered at the prompt, and if not, why. */
    enum Always {
        /** "always" is offered and would store {@link Ask#prefix()}. */
        OFFERED,
        /** The program is not in a trusted directory. */
        NOT_IN_SYSTEM_DIRECTORY,
        /** The program is in the never-always set. */
        NEVER_ALWAYS_PROGRAM,
        /** A token of the prefix holds a character that has to be escaped to be seen. */
        PREFIX_NOT_PLAIN
    }

    /** Why a command cannot run. */
    enum Refusal {
        /** The executable is empty or contains NUL. */
        INVALID_EXECUTABLE,
        /** The first argument repeats the program. */
        PROGRAM_NAME_IN_ARGUMENTS,
        /** An argument contains NUL. */
        NUL_IN_ARGUMENT,
        /** No executable regular file was found for the program. */
        NOT_FOUND
    }
}
