package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.AllowFile;
import dev.aii.policy.Builtins;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guarded argument forms at the tool: a note at the prompt, no "always".
 * No test here lets a clock-setting command run with a valid date: the date
 * given is never one, so even as root the clock stays as it is.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RunCommandToolGuardTest {

    private static final String CLOCK_NOTE = "  note: this form of date can set the system clock\n";
    private static final String NO_TERMINAL = "Denied: this command is not on the allowlist and there is no "
            + "terminal to ask the user for approval. Do not retry it.";
    private static final String DENIED = "Denied: the user declined to run this command. Do not retry it.";

    @TempDir
    Path dir;

    @Test
    void theNoteIsTheLineAfterTheCommandAndAlwaysIsNotOffered() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("n"));
        assertEquals(DENIED, f.call("date", "-s", "not a date"));
        assertEquals(List.of(TerminalApproverTest.START + "aii: run this command?\n  date -s 'not a date'\n" + CLOCK_NOTE
                + "  [y] yes once   [N] no\n> n\n"), f.terminal.prompts());
        assertEquals("", f.stderr());
    }

    @Test
    void eachGuardHasItsOwnNoteLine() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("n"));
        assertEquals(DENIED, f.call("file", "-zC", "-m", "x"));
        assertEquals(List.of(TerminalApproverTest.START + "aii: run this command?\n  file -zC -m x\n"
                + "  note: this form of file runs an external decompressor\n"
                + "  note: this form of file can write a compiled magic file\n"
                + "  note: x does not exist, so aii cannot tell what file would read\n"
                + "  [y] yes once   [N] no\n> n\n"), f.terminal.prompts());
    }

    @Test
    void withoutATerminalAGuardedFormIsDenied() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        assertEquals(NO_TERMINAL, f.call("date", "0101000020"));
        assertEquals(NO_TERMINAL, f.call("file", "-C", "-m", dir.resolve("x").toString()));
        assertEquals(NO_TERMINAL, f.call("file", "-z", "x"));
        assertEquals("", f.stderr());
        assertFalse(Files.exists(dir.resolve("x.mgc")));
    }

    @Test
    void answeringAlwaysWhereItIsNotOfferedIsNoAndStoresNothing() throws IOException {
        AllowFile file = AllowFile.at(dir.resolve("config/allow"));
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("a"), file, Limits.DEFAULT, false);
        assertEquals(DENIED, f.call("file", "-z", "x"));
        assertEquals(Builtins.defaults(), f.tool.policy().rules());
        assertFalse(Files.exists(file.path()));
    }

    @Test
    void yesOnceRunsTheGuardedCommand() throws IOException {
        Path plain = Files.writeString(dir.resolve("notes.txt"), "hello\n");
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.answering("y"));
        String result = f.call("file", "-z", plain.toString());
        assertTrue(result.startsWith("exit 0\n" + plain + ": "), result);
        assertEquals("aii: $ file -z " + plain + "\n", f.stderr());
    }

    @Test
    void aRuleThatSpellsTheFormOutRunsItWithoutAsking() {
        ToolFixture f = new ToolFixture(RuleSet.of(List.of(Rule.of("date", "-s"))), FakeTerminal.absent());
        String result = f.call("date", "-s", "not a date");
        // GNU date: "invalid date"; BSD date: no -s option. Either way it ran, and failed.
        assertTrue(result.startsWith("exit 1\n"), result);
        assertEquals("aii: $ date -s 'not a date'\n", f.stderr());
        assertEquals(0, f.terminal.opened());
    }

    @Test
    void theHarmlessFormsStillRunUnderTheDefaults() {
        ToolFixture f = new ToolFixture(Builtins.defaults(), FakeTerminal.absent());
        String result = f.call("date", "-u", "+%Y");
        assertTrue(result.matches("exit 0\n[0-9]{4}\n"), result);
        assertEquals(0, f.terminal.opened());
    }
}
