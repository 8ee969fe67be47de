package dev.aii.testkit;

import dev.aii.exec.CommandRunner;
import dev.aii.exec.ProcessBuilderRunner;

/** The portable runner against the runner contract. */
class ProcessBuilderRunnerTest extends CommandRunnerContract {

    private final ProcessBuilderRunner runner = new ProcessBuilderRunner();

    @Override
    protected CommandRunner runner() {
        return runner;
    }
}
