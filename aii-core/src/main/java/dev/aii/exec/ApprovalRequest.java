package dev.aii.exec;

import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the user is asked about.
 *
 * @param command the command, as resolved
 * @param alwaysPrefix the rule "always" would store, when "always" is offered
 * @param notes extra lines shown under the command (each without indentation or LF)
 */
public record ApprovalRequest(ResolvedCommand command, Optional<Rule> alwaysPrefix, List<String> notes) {

    public ApprovalRequest {
        Objects.requireNonNull(command, "command");
        alwaysPrefix = alwaysPrefix == null ? Optional.empty() : alwaysPrefix;
        notes = List.copyOf(notes);
    }
}
