package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The parts of the runner that need no process; its behaviour is the testkit's runner contract. */
class ProcessBuilderRunnerTest {

    @Test
    void launchReasonsAreTheSystemsWordsFromEitherJdkFormat() {
        assertEquals("Permission denied", ProcessBuilderRunner.launchReason(new IOException(
                "Cannot run program \"/x\": Exec failed, error: 13 (Permission denied) ",
                new IOException("Exec failed, error: 13 (Permission denied) "))));
        assertEquals("No such file or directory", ProcessBuilderRunner.launchReason(new IOException(
                "Cannot run program \"/x\": error=2, No such file or directory",
                new IOException("error=2, No such file or directory"))));
        assertEquals("Too many open files", ProcessBuilderRunner.launchReason(new IOException("/x: Too many open files")));
        assertEquals("IOException", ProcessBuilderRunner.launchReason(new IOException()));
    }
}
