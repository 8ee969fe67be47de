package dev.aii.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.config.SystemEnvironment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which environment each run gets: set for git and less under a rule, untouched when approved at the prompt. */
class UnderRuleTest {

    /** A runner that records what it was asked, and answers as a command that printed nothing. */
    private static class Recording implements CommandRunner {
        final List<String> calls = new ArrayList<>();
        final List<Map<String, String>> environments = new ArrayList<>();
        RunResult configAnswer = new RunResult.Exited(1, new CapturedOutput(new byte[0], 0));
        String version = ReportedGitVersion.NEW_ENOUGH;


        @Override
        public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                             Cancellation cancellation) {
            calls.add(path + " " + String.join(" ", arguments));
            environments.add(environment);
            if (arguments.equals(List.of("--version"))) {
                byte[] line = (version + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                return new RunResult.Exited(0, new CapturedOutput(line, line.length));
            }
            if (arguments.contains("config")) {
                return configAnswer;
            }
            return new RunResult.Exited(0, new CapturedOutput(new byte[0], 0));
        }
    }

    private static AnswerScope tool(Recording runner, RuleSet rules, FakeTerminal terminal) {
        ExecOutput output = ExecOutput.to(new java.io.PrintStream(new java.io.ByteArrayOutputStream()), true, () -> { });
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(rules, SystemEnvironment.of(Map.of("PATH", ToolFixture.PATH), Path.of(""))))
                .approver(new TerminalApprover(terminal, output))
                .runner(runner)
                .output(output)
                .build();
        return tool.startAnswer();
    }

    @Test
    void lessRunByARuleGetsNoInputPreprocessor() {
        Recording runner = new Recording();
        tool(runner, RuleSet.of(List.of(Rule.of("less"))), FakeTerminal.absent())
                .call(ToolFixture.json("less", "pom.xml"));
        assertEquals(List.of(Map.of("LESSOPEN", "", "LESSCLOSE", "")), runner.environments);
    }

    @Test
    void gitRunByARuleAsksForDriversFirstThenRunsLockedDown() {
        Recording runner = new Recording();
        tool(runner, RuleSet.of(List.of(Rule.of("git", "status"))), FakeTerminal.absent())
                .call(ToolFixture.json("git", "status"));
        assertEquals(3, runner.calls.size(), runner.calls::toString);
        assertTrue(runner.calls.get(0).endsWith("git --version"), runner.calls.get(0));
        assertTrue(runner.calls.get(1).endsWith("git config --null --name-only --get-regexp "
                + GitLockdown.DRIVER_KEYS), runner.calls.get(1));
        assertTrue(runner.calls.get(2).endsWith("git status"), runner.calls.get(2));
        Map<String, String> env = runner.environments.get(2);
        assertEquals("cat", env.get("GIT_PAGER"));
        assertEquals("0", env.get("GIT_OPTIONAL_LOCKS"));
        int n = Integer.parseInt(env.get("GIT_CONFIG_COUNT"));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(env.get("GIT_CONFIG_KEY_" + i));
        }
        assertEquals(List.copyOf(GitLockdown.CONFIG.keySet()), keys);
        for (int i = 0; i < n; i++) {
            assertEquals(GitLockdown.CONFIG.get(keys.get(i)), env.get("GIT_CONFIG_VALUE_" + i));
        }
        GitLockdown.VARIABLES.forEach((name, value) -> assertEquals(value, env.get(name), name));
        assertEquals(List.of("core.fsmonitor", "core.hooksPath", "core.pager", "core.sshCommand", "core.askPass",
                "credential.helper", "gpg.program", "gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.program",
                "gpg.ssh.defaultKeyCommand", "diff.ignoreSubmodules", "submodule.recurse",
                "status.submoduleSummary", "diff.submodule", "log.showSignature"), keys);
    }

    @Test
    void gitDoesNotRunWhenItsDriversCannotBeListedInFull() {
        for (RunResult answer : List.of(new RunResult.TimedOut(new CapturedOutput(new byte[0], 0)),
                new RunResult.Exited(0, new CapturedOutput(new byte[] {'a'}, 1 << 20)),
                new RunResult.LaunchFailed("nope"))) {
            Recording runner = new Recording();
            runner.configAnswer = answer;
            String result = tool(runner, RuleSet.of(List.of(Rule.of("git"))), FakeTerminal.absent())
                    .call(ToolFixture.json("git", "diff"));
            assertEquals("Error: could not launch git: its configuration could not be checked in time", result);
            assertEquals(2, runner.calls.size(), runner.calls::toString);
        }
    }

    @Test
    void everyDriverKeyGitListsIsOverridden() {
        Recording runner = new Recording();
        byte[] listed = "diff.a b.textconv\0filter.x.process\0diff.external\0".getBytes();
        runner.configAnswer = new RunResult.Exited(0, new CapturedOutput(listed, listed.length));
        tool(runner, RuleSet.of(List.of(Rule.of("git"))), FakeTerminal.absent()).call(ToolFixture.json("git", "status"));
        Map<String, String> env = runner.environments.get(2);
        Map<String, String> config = new java.util.HashMap<>();
        for (int i = 0; i < Integer.parseInt(env.get("GIT_CONFIG_COUNT")); i++) {
            config.put(env.get("GIT_CONFIG_KEY_" + i), env.get("GIT_CONFIG_VALUE_" + i));
        }
        assertEquals("", config.get("diff.a b.textconv"));
        assertEquals("", config.get("filter.x.process"));
        assertEquals("", config.get("diff.external"));
    }

    @Test
    void aGitOlderThanTheEnvironmentNeedsMakesGitRulesAskWithThatReason() {
        Recording runner = new Recording();
        runner.version = "git version 2.39.5";
        FakeTerminal terminal = FakeTerminal.answering("n");
        String result = tool(runner, RuleSet.of(List.of(Rule.of("git", "status"))), terminal)
                .call(ToolFixture.json("git", "status"));
        assertEquals(ToolTexts.DENIED_BY_USER, result);
        assertEquals(1, runner.calls.size(), runner.calls::toString);
        assertEquals(List.of(TerminalApproverTest.START + "aii: run this command?\n  git status\n"
                + "  note: git 2.39.5 is older than 2.45, which aii's git environment needs (GIT_NO_LAZY_FETCH)\n"
                + "  [y] yes once   [N] no\n> n\n"), terminal.prompts());
    }

    @Test
    void aGitWhoseVersionCannotBeToldAsksToo() {
        for (String line : List.of("", "git version two", "hub version 2.50")) {
            Recording runner = new Recording();
            runner.version = line;
            String result = tool(runner, RuleSet.of(List.of(Rule.of("git"))), FakeTerminal.absent())
                    .call(ToolFixture.json("git", "log"));
            assertEquals(ToolTexts.DENIED_NO_TERMINAL, result, line);
            assertEquals(1, runner.calls.size(), runner.calls::toString);
        }
    }

    @Test
    void eachGitIsAskedItsVersionOnce() {
        Recording runner = new Recording();
        AnswerScope answer = tool(runner, RuleSet.of(List.of(Rule.of("git"))), FakeTerminal.absent());
        answer.call(ToolFixture.json("git", "log"));
        answer.call(ToolFixture.json("git", "status"));
        assertEquals(1, runner.calls.stream().filter(c -> c.endsWith("git --version")).count(), runner.calls::toString);
        assertEquals(5, runner.calls.size(), runner.calls::toString);
    }

    @Test
    void theVersionsOnEitherSideOfTheLine() {
        assertEquals(java.util.Optional.empty(), GitVersion.judge("git version 2.45.0"));
        assertEquals(java.util.Optional.empty(), GitVersion.judge("git version 2.50.1.windows.1"));
        assertEquals(java.util.Optional.empty(), GitVersion.judge("git version 3.0.0"));
        assertEquals(java.util.Optional.of("git 2.44.2 is older than 2.45, which aii's git environment needs "
                + "(GIT_NO_LAZY_FETCH)"), GitVersion.judge("git version 2.44.2"));
        assertEquals(java.util.Optional.of("git 2.39.3 is older than 2.45, which aii's git environment needs "
                + "(GIT_NO_LAZY_FETCH)"), GitVersion.judge("git version 2.39.3 (Apple Git-146)"));
    }

    @Test
    void theRealGitOfThisMachineIsJudgedByTheVersionItReports() throws Exception {
        String git = java.nio.file.Files.isExecutable(Path.of("/usr/bin/git")) ? "/usr/bin/git" : "/bin/git";
        Process p = new ProcessBuilder(git, "--version").redirectErrorStream(true).start();
        String line = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        p.waitFor();
        String result = tool(new Recording() {
            @Override
            public RunResult run(String path, List<String> arguments, Map<String, String> environment,
                                 Limits limits, Cancellation cancellation) {
                return new ProcessBuilderRunner().run(path, arguments, environment, limits, cancellation);
            }
        }, RuleSet.of(List.of(Rule.of("git", "--version"))), FakeTerminal.absent())
                .call(ToolFixture.json("git", "--version"));
        // Older than 2.45 (Debian 12's 2.39, say) asks, and there is no terminal; newer runs.
        assertEquals(GitVersion.judge(line).isPresent() ? ToolTexts.DENIED_NO_TERMINAL : "exit 0\n" + line + "\n",
                result, line);
    }

    @Test
    void aDiffInARepositoryThatNamesADiffProgramAsksWithTheKey() {
        for (String key : List.of("diff.external", "diff.pdf.textconv", "diff.x y.command")) {
            Recording runner = new Recording();
            byte[] listed = (key + "\0filter.lfs.process\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            runner.configAnswer = new RunResult.Exited(0, new CapturedOutput(listed, listed.length));
            FakeTerminal terminal = FakeTerminal.answering("n");
            AnswerScope answer = tool(runner, RuleSet.of(List.of(Rule.of("git"))), terminal);
            assertEquals(ToolTexts.DENIED_BY_USER, answer.call(ToolFixture.json("git", "-C", "/r", "log", "-p")));
            assertEquals(List.of(TerminalApproverTest.START + "aii: run this command?\n  git -C /r log -p\n"
                    + "  note: the configuration names a program for git's diffs ("
                    + dev.aii.policy.Render.render(List.of(key)) + "), which aii cannot turn off\n"
                    + "  [y] yes once   [N] no\n> n\n"), terminal.prompts());
            // A subcommand that shows no diff runs, the program's key set empty.
            assertEquals("exit 0\n", answer.call(ToolFixture.json("git", "status")));
        }
    }

    @Test
    void theSubcommandIsTheFirstWordAfterGitsOwnOptions() {
        assertEquals("log", GitLockdown.subcommand(List.of("-C", "/r", "--no-pager", "-c", "a.b=c", "log", "-p")));
        assertEquals("show", GitLockdown.subcommand(List.of("--git-dir=/g", "show")));
        assertEquals("", GitLockdown.subcommand(List.of("--version")));
    }

    @Test
    void aCommandApprovedAtThePromptKeepsTheEnvironmentAsItIs() {
        Recording runner = new Recording();
        tool(runner, RuleSet.empty(), FakeTerminal.answering("y")).call(ToolFixture.json("git", "status"));
        assertEquals(List.of(Map.of()), runner.environments);
    }

    @Test
    void aLinkToLessRunByARuleGetsNoInputPreprocessorEither(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        Path less = Path.of("/usr/bin/less");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isExecutable(less), "needs /usr/bin/less");
        Path pager = java.nio.file.Files.createSymbolicLink(dir.resolve("pager"), less);
        assertTrue(UnderRule.isLess(new dev.aii.policy.ResolvedCommand("pager", pager.toString(), "pager", true,
                List.of())));
        assertTrue(UnderRule.isLess(new dev.aii.policy.ResolvedCommand("less", "/nowhere/less", "less", true,
                List.of())));
        assertTrue(!UnderRule.isLess(new dev.aii.policy.ResolvedCommand("ls", "/usr/bin/ls", "ls", true,
                List.of())));
    }

    @Test
    void otherProgramsRunByARuleKeepTheEnvironmentAsItIs() {
        Recording runner = new Recording();
        tool(runner, RuleSet.of(List.of(Rule.of("ls"))), FakeTerminal.absent()).call(ToolFixture.json("ls", "-l"));
        assertEquals(List.of(Map.of()), runner.environments);
    }
}
