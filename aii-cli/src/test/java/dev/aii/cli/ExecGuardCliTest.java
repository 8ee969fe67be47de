package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.backend.Backends;
import dev.aii.exec.ToolTexts;
import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import dev.aii.testkit.ScriptedTerminal;
import dev.aii.testkit.Wire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The holes in the built-in rules, through the command line: each prompts
 * instead of running. No test here runs a clock-setting command with a valid
 * date, so even as root the clock is never changed.
 */
class ExecGuardCliTest {

    @TempDir
    Path home;

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).stdinTerminal();
    }

    private static ScriptedModel.Step call(String executable, String... arguments) {
        StringBuilder json = new StringBuilder("{\"executable\":\"").append(executable).append("\",\"arguments\":[");
        for (int i = 0; i < arguments.length; i++) {
            json.append(i == 0 ? "\"" : ",\"").append(arguments[i]).append('"');
        }
        return new ScriptedModel.Step.CallTool(json.append("]}").toString());
    }

    @Test
    void theHolesGetTheNoTerminalDenialInsteadOfRunning() {
        String magic = home.resolve("x").toString();
        ScriptedModel model = new ScriptedModel().answer(
                call("date", "-s", "2020-01-01"),
                call("date", "0101000020"),
                call("file", "-C", "-m", magic),
                call("file", "-z", magic));
        CliHarness cli = cli(model).terminal(ScriptedTerminal.absent());
        assertEquals(0, cli.run("-x", "break things"));
        assertEquals(List.of(ToolTexts.DENIED_NO_TERMINAL, ToolTexts.DENIED_NO_TERMINAL,
                ToolTexts.DENIED_NO_TERMINAL, ToolTexts.DENIED_NO_TERMINAL), model.toolResults);
        assertEquals("", cli.err());
        assertFalse(Files.exists(home.resolve("x.mgc")));
        assertFalse(Files.exists(Path.of("x.mgc").toAbsolutePath()));
    }

    @Test
    void theHolesAreDeniedThroughAnOpenAiCompatibleServerToo() throws IOException {
        String magic = home.resolve("x").toString();
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.enqueue(Reply.toolCalls(Wire.OPENAI,
                            Reply.call("run_command", "{\"executable\":\"date\",\"arguments\":[\"-s\",\"2020-01-01\"]}"),
                            Reply.call("run_command", "{\"executable\":\"date\",\"arguments\":[\"0101000020\"]}"),
                            Reply.call("run_command", "{\"executable\":\"file\",\"arguments\":[\"-C\",\"-m\",\""
                                    + magic + "\"]}"),
                            Reply.call("run_command", "{\"executable\":\"file\",\"arguments\":[\"-z\",\""
                                    + magic + "\"]}")),
                    Reply.text("Denied."));
            CliHarness cli = new CliHarness(home).models(Backends::open).stdinDevNull()
                    .env("AII_BASE_URL", server.baseUrl()).terminal(ScriptedTerminal.absent());
            assertEquals(0, cli.run("-x", "break things"));
            assertEquals("Denied.\n", cli.out());
            assertEquals("", cli.err());
            assertEquals(List.of(ToolTexts.DENIED_NO_TERMINAL, ToolTexts.DENIED_NO_TERMINAL,
                    ToolTexts.DENIED_NO_TERMINAL, ToolTexts.DENIED_NO_TERMINAL), server.lastChatRequest().toolResults());
        }
        assertFalse(Files.exists(home.resolve("x.mgc")));
        assertFalse(Files.exists(Path.of("x.mgc").toAbsolutePath()));
    }

    @Test
    void thePromptNamesTheReasonAndOffersNoAlways() {
        ScriptedModel model = new ScriptedModel().answer(call("date", "-s", "2020-01-01"), call("file", "-z", "x"));
        ScriptedTerminal terminal = ScriptedTerminal.answering("n", "a");
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "set the clock"));
        assertEquals(List.of(
                "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25h" + "aii: run this command?\n  date -s 2020-01-01\n  note: this form of date can set the system clock\n"
                        + "  [y] yes once   [N] no\n> ",
                "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25h" + "aii: run this command?\n  file -z x\n  note: this form of file runs an external decompressor\n"
                        + "  [y] yes once   [N] no\n> "), terminal.prompts());
        assertEquals(List.of(ToolTexts.DENIED_BY_USER, ToolTexts.DENIED_BY_USER), model.toolResults);
        assertFalse(Files.exists(home.resolve(".config/aii/allow")));
    }

    @Test
    void aHandWrittenDateDashSRuleStillAllowsIt() throws IOException {
        Path allow = home.resolve(".config/aii/allow");
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "date\ndate -s\n");
        ScriptedModel model = new ScriptedModel().answer(call("date", "-s", "not a date"));
        ScriptedTerminal terminal = ScriptedTerminal.answering();
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "set the clock to nonsense"));
        assertEquals(0, terminal.opened());
        assertEquals("aii: $ date -s 'not a date'\n", cli.err());
        // It ran, and date refused the value.
        assertTrue(model.toolResults.getFirst().startsWith("exit 1\n"), model.toolResults.toString());
    }

    @Test
    void theHarmlessFormsStillRunWithoutAPrompt() throws IOException {
        Path plain = Files.writeString(home.resolve("notes.txt"), "hello\n");
        ScriptedModel model = new ScriptedModel().answer(call("date", "-u", "+%Y"), call("file", "-b", plain.toString()));
        ScriptedTerminal terminal = ScriptedTerminal.answering();
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "what year, what file"));
        assertEquals(0, terminal.opened());
        assertTrue(model.toolResults.get(0).matches("exit 0\n[0-9]{4}\n"), model.toolResults.toString());
        assertTrue(model.toolResults.get(1).startsWith("exit 0\n"), model.toolResults.toString());
        assertEquals("aii: $ date -u +%Y\naii: $ file -b " + plain + "\n", cli.err());
    }
}
