package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.aii.testkit.PtyDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interactive mode on Foundation Models (the C stub of the shim) on a real
 * pseudo-terminal: Ctrl-C during an answer, then the next prompt while the
 * framework still winds the stopped answer down.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FoundationModelsInteractiveE2E {

    /** The header on the terminal for Foundation Models, whatever else is configured. */
    static final String FM_HEADER = "aii \u2014 Apple Intelligence Interface\r\nType /new to reset, /quit to exit.\r\n";

    private static final Path STUB = Path.of(System.getProperty("aii.it.fmshim.stub"));

    @TempDir
    Path tmp;

    @Test
    void afterCtrlCTheNextPromptIsAnsweredAndNeverReportedAsModelBusy() throws Exception {
        Path gate = tmp.resolve("gate");
        AiiProcess aii = new AiiProcess(tmp)
                .env("TERM", "xterm-256color")
                .env("AII_SHIM_LIBRARY", STUB.toString())
                // Every answer: "Thinking", then it waits for the gate file, then "Done.".
                .env("FMSHIM_STUB_ANSWER", "Thinking\n")
                .env("FMSHIM_STUB_WAIT_FOR_FILE", gate.toString())
                .env("FMSHIM_STUB_THEN_ANSWER", "Done.")
                // The stopped answer keeps the framework busy for a while; the next prompt waits it out.
                .env("FMSHIM_STUB_WIND_DOWN_MS", "300");
        try (PtyDriver pty = aii.onTerminal(List.of("-i"))) {
            pty.awaitOutput(FM_HEADER, AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("Tell me a long story\n");
            pty.awaitOutput("Thinking\r\n", AiiProcess.LIMIT);
            pty.type("\u0003");
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            Files.writeString(gate, "");
            pty.type("Something short\n");
            pty.awaitOutput("Thinking\r\nDone.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("\u0004");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            assertFalse(pty.output().contains("Model busy"), pty.output());
            assertFalse(pty.output().contains("aii: "), pty.output());
        }
    }
}
