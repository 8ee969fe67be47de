package dev.aii.policy;

import java.util.List;
import java.util.Objects;
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
     * @param prefix the rule that answering "always" would store, derived from the command
     *               ({@link ExecPolicy#alwaysRule}): a prefix for a program with a guard table,
     *               else the exact command
     * @param always whether and why "always" is offered
     * @param guardReasons when {@code always} is {@link Always#GUARDED}, what each guarded
     *                     form in the command can do (e.g. {@code this form of date can set
     *                     the system clock}), for a note at the prompt; else empty
     */
    record Ask(ResolvedCommand command, Rule prefix, Always always, List<String> guardReasons) implements Decision {

        public Ask {
            Objects.requireNonNull(command, "command");
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(always, "always");
            guardReasons = List.copyOf(guardReasons);
            if ((always == Always.GUARDED) == guardReasons.isEmpty()) {
                throw new IllegalArgumentException("guard reasons go with GUARDED and only with it: "
                        + always + " " + guardReasons);
            }
        }

        /** A decision that is not about a guarded form. */
        public Ask(ResolvedCommand command, Rule prefix, Always always) {
            this(command, prefix, always, List.of());
        }

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
        /** "always" is offered and would store {@link Ask#prefix()} (a prefix, or an exact rule). */
        OFFERED,
        /** The program is not in a trusted directory. */
        NOT_IN_SYSTEM_DIRECTORY,
        /** The program is in the never-always set. */
        NEVER_ALWAYS_PROGRAM,
        /** A token of the prefix holds a character that has to be escaped to be seen. */
        PREFIX_NOT_PLAIN,
        /**
         * The command uses a guarded argument form (e.g. {@code date -s}) that no
         * matching rule spells out; see {@link Ask#guardReasons()}.
         */
        GUARDED
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
