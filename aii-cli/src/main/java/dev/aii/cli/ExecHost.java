package dev.aii.cli;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.Terminal;
import java.util.Optional;

/** How commands are run and the user is asked, on this machine. */
interface ExecHost {

    CommandRunner runner();

    Terminal terminal();

    /** A warning to print once when the best runner is not available (e.g. no native access). */
    Optional<String> fallbackWarning();
}
