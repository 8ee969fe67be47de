package dev.aii.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.exec.Platform;
import dev.aii.exec.ToolTexts;
import dev.aii.model.ToolSpec;
import dev.aii.testkit.ScriptedTerminal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecCliTest {

    @TempDir
    Path home;

    private String target() {
        return home.resolve("x.txt").toString();
    }

    /** A call to touch x.txt in the temporary home. */
    private String touch() {
        return "{\"executable\":\"touch\",\"arguments\":[\"" + target() + "\"]}";
    }

    private CliHarness cli(ScriptedModel model) {
        return new CliHarness(home).model(model).stdinTerminal();
    }

    private static ScriptedModel.Step call(String json) {
        return new ScriptedModel.Step.CallTool(json);
    }

    private static ScriptedModel.Step text(String s) {
        return new ScriptedModel.Step.Text(s);
    }

    @Test
    void execOffersTheToolWithTheInstructionsForThisSystem() {
        ScriptedModel model = new ScriptedModel().answerText("ok");
        CliHarness cli = cli(model);
        assertEquals(0, cli.run("-x", "hi"));
        String expected = "You can run programs on the user's computer with the run_command tool. When the user asks "
                + "you to do something or find something out on their machine, call the tool instead of showing "
                + "commands in a code block. There is no shell: give the program and its arguments separately; "
                + "pipes, redirects, wildcards and ~ do not work. Run one program per call. Do not run destructive "
                + "commands unless the user explicitly asked for them. If a command is denied, do not retry it. "
                + "The user's home directory is " + home + " and the current directory is "
                + Path.of("").toAbsolutePath()
                + "; use full paths instead of ~.";
        assertEquals(List.of(Optional.of(expected)), model.instructions);
        ToolSpec tool = model.tools.getFirst().getFirst();
        assertEquals("run_command", tool.name());
        assertEquals(ToolTexts.toolDescription(Platform.OTHER), tool.description());
        assertEquals(ToolTexts.parametersSchema(), tool.parametersSchema());
    }

    @Test
    void interactiveSystemPromptComesFirstThenABlankLineThenTheExecText() {
        ScriptedModel model = new ScriptedModel();
        CliHarness cli = new CliHarness(home).model(model).stdin("/quit\n");
        assertEquals(0, cli.run("-ix", "Be brief."));
        String instructions = model.instructions.getFirst().orElseThrow();
        assertTrue(instructions.startsWith("Be brief.\n\nYou can run programs on the user's computer"), instructions);
    }

    @Test
    void anAllowlistedCommandRunsWithoutAPromptAndIsLogged() {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"), text("done"));
        ScriptedTerminal terminal = ScriptedTerminal.answering();
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "where am I?"));
        assertEquals(List.of("exit 0\n" + Path.of("").toAbsolutePath() + "\n"), model.toolResults);
        assertEquals("aii: $ pwd\n", cli.err());
        assertEquals("done\n", cli.out());
        assertEquals(0, terminal.opened());
    }

    @Test
    void underJsonTheLogLineIsSuppressed() {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model);
        assertEquals(0, cli.run("-x", "-j", "where am I?"));
        assertEquals("", cli.err());
        assertEquals(1, model.toolResults.size());
    }

    @Test
    void withExecEveryPieceIsWrittenAtOnce() {
        ScriptedModel model = new ScriptedModel().answerText("a", "b", "c");
        CliHarness cli = cli(model);
        assertEquals(0, cli.run("-x", "hi"));
        assertEquals(List.of("a", "b", "c", "\n"), cli.out.writes());
    }

    @Test
    void textBeforeACommandEndsItsLineOnATerminalBeforeTheLogLine() {
        ScriptedModel model = new ScriptedModel()
                .answer(text("Let me check"), call("{\"executable\":\"pwd\",\"arguments\":[]}"), text("Done."));
        CliHarness cli = cli(model).stdoutTerminal();
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals("Let me check\nDone.\n", cli.out());
        assertEquals("aii: $ pwd\n", cli.err());
    }

    @Test
    void withoutATerminalAnUnlistedCommandIsDeniedAndNothingRuns() {
        ScriptedModel model = new ScriptedModel().answer(call(touch()));
        CliHarness cli = cli(model).terminal(ScriptedTerminal.absent());
        assertEquals(0, cli.run("-x", "make x.txt"));
        assertEquals(List.of(ToolTexts.DENIED_NO_TERMINAL), model.toolResults);
        assertFalse(Files.exists(home.resolve("x.txt")));
        assertEquals("", cli.err());
    }

    /** What every approval prompt starts with: column 0 of a cleared line, then the terminal reset. */
    private static final String PROMPT_START = "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007" + "\u001b[0m\u001b(B\u001b[?25h";

    @Test
    void aLineOfTheAnswerLeftOpenOnAPipeIsEndedOnTheTerminalByThePrompt() {
        ScriptedModel model = new ScriptedModel().answer(text("Checking files."), call(touch()), call(touch()), text("No."));
        ScriptedTerminal terminal = ScriptedTerminal.answering("n", "n");
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "make x.txt"));
        String question = "aii: run this command?\n  touch " + target() + "\n"
                + "  [y] yes once   [a] always allow exactly \"touch " + target() + "\"   [N] no\n> ";
        // stdout (a pipe) is left as the answer wrote it; the terminal gets the LF, once.
        assertEquals(List.of(PROMPT_START.replace("\u001b8\r", "\u001b8\n\r") + question, PROMPT_START + question), terminal.prompts());
        assertEquals("Checking files.No.\n", cli.out());
    }

    @Test
    void onAStdoutTerminalTheAnswersLineIsEndedThereAndThePromptStartsAsAlways() {
        ScriptedModel model = new ScriptedModel().answer(text("Checking files."), call(touch()), text("No."));
        ScriptedTerminal terminal = ScriptedTerminal.answering("n");
        CliHarness cli = cli(model).terminal(terminal).stdoutTerminal();
        assertEquals(0, cli.run("-x", "make x.txt"));
        assertTrue(terminal.prompts().getFirst().startsWith(PROMPT_START + "aii: run this command?\n"),
                terminal.prompts().toString());
        assertEquals("Checking files.\nNo.\n", cli.out());
    }

    @Test
    void noAtThePromptRunsNothing() {
        ScriptedModel model = new ScriptedModel().answer(call(touch()));
        ScriptedTerminal terminal = ScriptedTerminal.answering("n");
        CliHarness cli = cli(model).terminal(terminal);
        assertEquals(0, cli.run("-x", "make x.txt"));
        assertEquals(List.of("\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8" + "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J\u001b]110\u0007\u001b]111\u0007\u001b[0m\u001b(B\u001b[?25h" + "aii: run this command?\n  touch " + target() + "\n"
                + "  [y] yes once   [a] always allow exactly \"touch " + target() + "\"   [N] no\n> "), terminal.prompts());
        assertEquals(List.of(ToolTexts.DENIED_BY_USER), model.toolResults);
        assertFalse(Files.exists(home.resolve("x.txt")));
    }

    @Test
    void alwaysSeedsTheAllowFileAndTheNextRunDoesNotAsk() throws Exception {
        ScriptedModel first = new ScriptedModel().answer(call(touch()));
        ScriptedTerminal terminal = ScriptedTerminal.answering("a");
        assertEquals(0, cli(first).terminal(terminal).run("-x", "make x.txt"));
        assertEquals(List.of("exit 0\n"), first.toolResults);
        assertTrue(Files.exists(home.resolve("x.txt")));
        Path allow = home.resolve(".config/aii/allow");
        assertEquals("# seeded from aii 0.9.0 built-in defaults\n# one rule per line: an argv prefix\n"
                + "ls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\nuname\ndf\ndu\nstat\nfile\nwhich\nps\nuptime\n"
                + "sw_vers\n= touch " + target() + "\n", Files.readString(allow));

        ScriptedModel second = new ScriptedModel().answer(call(touch()));
        ScriptedTerminal untouched = ScriptedTerminal.answering();
        CliHarness again = cli(second).terminal(untouched);
        assertEquals(0, again.run("-x", "make x.txt"));
        assertEquals(List.of("exit 0\n"), second.toolResults);
        assertEquals(0, untouched.opened());
        assertEquals("aii: $ touch " + target() + "\n", again.err());
    }

    @Test
    void approvalsMadeWithAlwaysSurviveNew() {
        ScriptedModel model = new ScriptedModel().answer(call(touch())).answer(call(touch()));
        ScriptedTerminal terminal = ScriptedTerminal.answering("a");
        CliHarness cli = new CliHarness(home).model(model).stdin("first\n/new\nsecond\n").terminal(terminal);
        assertEquals(0, cli.run("-i", "-x"));
        assertEquals(List.of("exit 0\n", "exit 0\n"), model.toolResults);
        assertEquals(1, terminal.opened());
        assertEquals(2, model.sessionsOpened);
    }

    @Test
    void ctrlCAtTheApprovalPromptDeclinesThatCommandAndTheAnswerGoesOn() throws Exception {
        ScriptedModel model = new ScriptedModel().answer(call(touch()), text("as you wish"));
        ScriptedTerminal terminal = ScriptedTerminal.interactive();
        CliHarness cli = cli(model).terminal(terminal);
        Thread presser = Thread.ofPlatform().start(() -> {
            try {
                terminal.awaitPrompts(1, Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                return;
            }
            cli.interrupts.fire();
        });
        assertEquals(0, cli.run("-x", "make x.txt"));
        presser.join();
        assertEquals(List.of(ToolTexts.DENIED_BY_USER), model.toolResults);
        assertEquals("as you wish\n", cli.out());
        assertFalse(Files.exists(home.resolve("x.txt")));
    }

    @Test
    void ctrlCWhileACommandRunsStopsItAndExits130() throws Exception {
        Path allow = home.resolve(".config/aii/allow");
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "sleep\n");
        ScriptedModel model = new ScriptedModel()
                .answer(call("{\"executable\":\"sleep\",\"arguments\":[\"30\"]}"), text("never"));
        CliHarness cli = cli(model);
        Thread presser = Thread.ofVirtual().start(() -> {
            try {
                while (!cli.err().contains("aii: $ sleep 30")) {
                    Thread.sleep(20);
                }
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            cli.interrupts.fire();
        });
        long start = System.nanoTime();
        assertEquals(130, cli.run("-x", "sleep"));
        presser.join();
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 20, "the command was not stopped");
        assertEquals(List.of(), model.toolResults.stream().filter(r -> r.startsWith("exit")).toList());
        assertEquals("", cli.out());
    }

    @Test
    void allowFileWarningsArePrintedOnceAtStartup() throws Exception {
        Path allow = home.resolve(".config/aii/allow");
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "pwd\n\"unterminated\n");
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model);
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals("aii: warning: " + allow + ": skipping malformed line 2\naii: $ pwd\n", cli.err());
    }

    @Test
    void allowFileIsNotReadWithoutExec() throws Exception {
        Path allow = home.resolve(".config/aii/allow");
        Files.createDirectories(allow.getParent());
        Files.writeString(allow, "'broken\n");
        CliHarness cli = cli(new ScriptedModel().answerText("ok"));
        assertEquals(0, cli.run("hi"));
        assertEquals("", cli.err());
    }

    @Test
    void aRemoteServerWithExecIsWarnedAboutOnce() {
        ScriptedModel model = new ScriptedModel().answer(call("{\"executable\":\"pwd\",\"arguments\":[]}"));
        CliHarness cli = cli(model).env("AII_BASE_URL", "http://192.0.2.7:8080/v1");
        assertEquals(0, cli.run("-x", "where?"));
        assertEquals("aii: warning: command output will be sent to 192.0.2.7\naii: $ pwd\n", cli.err());
    }

    @Test
    void aLoopbackServerIsNotWarnedAbout() {
        for (String base : List.of("http://localhost:11434/v1", "http://127.0.0.1:8080/v1", "http://[::1]:1234/v1")) {
            ScriptedModel model = new ScriptedModel().answerText("ok");
            CliHarness cli = cli(model).env("AII_BASE_URL", base);
            assertEquals(0, cli.run("-x", "hi"));
            assertEquals("", cli.err(), base);
        }
    }

    @Test
    void aRemoteServerWithoutExecIsNotWarnedAbout() {
        CliHarness cli = cli(new ScriptedModel().answerText("ok")).env("AII_BASE_URL", "http://192.0.2.7/v1");
        assertEquals(0, cli.run("hi"));
        assertEquals("", cli.err());
    }

    @Test
    void aHostNameIsJudgedAsWrittenWithoutALookup() throws Exception {
        // This machine's own name often resolves to 127.0.x.x; by name, only localhost counts as this machine.
        List<String> names = new java.util.ArrayList<>(List.of("gpu-box.lan"));
        String own = java.net.InetAddress.getLocalHost().getHostName();
        if (!own.equalsIgnoreCase("localhost") && !own.toLowerCase(java.util.Locale.ROOT).endsWith(".localhost")
                && !own.matches("[0-9.]+|.*:.*")) {
            names.add(own);
        }
        for (String name : names) {
            ScriptedModel model = new ScriptedModel().answerText("ok");
            CliHarness cli = cli(model).env("AII_BASE_URL", "http://" + name + ":11434/v1");
            assertEquals(0, cli.run("-x", "hi"));
            assertEquals("aii: warning: command output will be sent to " + name + "\n", cli.err(), name);
        }
    }
}
