package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.exec.ToolTexts;
import dev.aii.testkit.ScriptedTerminal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An allow file others can write is ignored, the same way by -x, --list-allowed and "always". */
class GuardedAllowFileCliTest {

    private static final String DEFAULTS = "ls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\nuname\ndf\ndu\nstat\nfile\n"
            + "which\nps\nuptime\nsw_vers\n";

    @TempDir
    Path home;

    private Path sharedAllowFile() throws IOException {
        Path file = home.resolve(".config/aii/allow");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "touch\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        return file;
    }

    @Test
    void execWarnsAndUsesTheDefaults() throws IOException {
        Path file = sharedAllowFile();
        Path target = home.resolve("x.txt");
        ScriptedModel model = new ScriptedModel().answer(new ScriptedModel.Step.CallTool(
                "{\"executable\":\"touch\",\"arguments\":[\"" + target + "\"]}"));
        CliHarness cli = new CliHarness(home).model(model).stdinTerminal().terminal(ScriptedTerminal.absent());
        assertEquals(0, cli.run("-x", "make x.txt"));
        assertEquals(List.of(ToolTexts.DENIED_NO_TERMINAL), model.toolResults);
        assertEquals("aii: warning: " + file + " is writable by others; using built-in defaults\n", cli.err());
    }

    @Test
    void listAllowedNamesTheFileAndListsTheDefaults() throws IOException {
        Path file = sharedAllowFile();
        CliHarness cli = new CliHarness(home).workingDirectory(home);
        assertEquals(0, cli.run("--list-allowed"));
        assertEquals("# source: " + file + "\n" + DEFAULTS, cli.out());
        assertEquals("aii: warning: " + file + " is writable by others; using built-in defaults\n", cli.err());
    }

    @Test
    void alwaysDoesNotWriteToIt() throws IOException {
        Path file = sharedAllowFile();
        Path target = home.resolve("x.txt");
        String touch = "{\"executable\":\"touch\",\"arguments\":[\"" + target + "\"]}";
        ScriptedModel model = new ScriptedModel().answer(new ScriptedModel.Step.CallTool(touch),
                new ScriptedModel.Step.CallTool(touch));
        CliHarness cli = new CliHarness(home).model(model).stdinTerminal().terminal(ScriptedTerminal.answering("a"));
        assertEquals(0, cli.run("-x", "make x.txt"));
        // The rule holds for this run: the second call does not ask.
        assertEquals(List.of("exit 0\n", "exit 0\n"), model.toolResults);
        assertEquals("touch\n", Files.readString(file));
        assertEquals("aii: warning: " + file + " is writable by others; using built-in defaults\n"
                + "aii: warning: could not save rule to " + file + ": " + file + " is writable by others\n"
                + "aii: $ touch " + target + "\naii: $ touch " + target + "\n", cli.err());
    }
}
