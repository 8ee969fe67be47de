package dev.aii.oracle;

import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.Approver;
import dev.aii.exec.CapturedOutput;
import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.ExecOutput;
import dev.aii.exec.Limits;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.ReportedGitVersion;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.RunResult;
import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides about commands the way aii does, through the real tool: its
 * policy, the environment it gives a program run by a rule, and a prompt
 * whose answer the oracle chooses (no, or "always" where it is offered, as a
 * user who keeps answering "always" would). Nothing runs here: the runner
 * records the command the tool would run unasked, with its environment, for
 * the sandbox to run under strace. Two questions it passes on: git's
 * version, answered as new enough so that git's tables are traced (an older
 * git makes every git rule ask), and git's question about its drivers, asked
 * of the real git as the sandbox's user (it runs nothing).
 */
final class Judge {

    /**
     * What the tool made of one command.
     *
     * @param ranUnasked whether it would run without asking
     * @param argv when it would, the resolved path and the arguments
     * @param environment when it would, the variables the tool sets for it
     * @param stored the rule "always" stored when the oracle answered so
     */
    record Verdict(boolean ranUnasked, List<String> argv, Map<String, String> environment, Optional<Rule> stored) {
    }

    private final RunCommandTool tool;
    private final boolean answerAlways;
    private boolean asked;
    private Rule offered;
    private Map<String, String> ran;
    private List<String> ranArgv;
    /** The commands answered "always": run again, each is what the user allowed, not what a rule adds. */
    private final java.util.Set<List<String>> approved = new java.util.HashSet<>();

    private final Sandbox sandbox;
    private final Path home;
    private final Path cwd;

    Judge(RuleSet rules, Path cwd, boolean answerAlways, Sandbox sandbox, Path home) {
        this.answerAlways = answerAlways;
        this.sandbox = sandbox;
        this.home = home;
        this.cwd = cwd;
        Environment env = SystemEnvironment.of(Map.of("PATH", "/usr/bin:/bin"), cwd);
        ExecOutput quiet = ExecOutput.to(new PrintStream(OutputStream.nullOutputStream()), true, () -> { });
        tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(rules, env))
                .approver((request, cancellation) -> {
                    asked = true;
                    offered = request.alwaysPrefix().orElse(null);
                    if (answerAlways && offered != null) {
                        approved.add(request.command().displayArgv());
                        return Approver.Answer.ALWAYS;
                    }
                    return Approver.Answer.NO;
                })
                .runner(new ReportedGitVersion(new Recorder(), ReportedGitVersion.NEW_ENOUGH))
                .output(quiet)
                .build();
    }

    /** What the tool does with {@code program} and {@code arguments}. */
    Verdict judge(String program, List<String> arguments) {
        asked = false;
        offered = null;
        ran = null;
        try (AnswerScope answer = tool.startAnswer()) {
            answer.call(json(program, arguments));
        }
        List<String> shown = new java.util.ArrayList<>(List.of(program));
        shown.addAll(arguments);
        boolean unasked = ran != null && !asked && !approved.contains(shown);
        return new Verdict(unasked, unasked ? ranArgv : List.of(), unasked ? ran : Map.of(),
                asked && answerAlways ? Optional.ofNullable(offered) : Optional.empty());
    }

    ExecPolicy policy() {
        return tool.policy();
    }

    /** Records what would run; asks git's own questions of the real git. */
    private final class Recorder implements CommandRunner {
        private final ProcessBuilderRunner real = new ProcessBuilderRunner();

        @Override
        public RunResult run(String path, List<String> arguments, Limits limits, Cancellation cancellation) {
            return run(path, arguments, Map.of(), limits, cancellation);
        }

        @Override
        public RunResult run(String path, List<String> arguments, Map<String, String> environment, Limits limits,
                             Cancellation cancellation) {
            if (path.endsWith("/git") && arguments.contains("--get-regexp") && arguments.contains("--name-only")) {
                // Asked as the sandbox's user, whose repository it is (git trusts no other owner's).
                Map<String, String> asking = new LinkedHashMap<>(environment);
                asking.put("HOME", home.toString());
                // In the command's directory, as aii asks it (this JVM's own directory is elsewhere).
                List<String> inCwd = new java.util.ArrayList<>(List.of("-C", cwd.toString()));
                inCwd.addAll(arguments);
                List<String> argv = sandbox.asUser(path, inCwd);
                return real.run(argv.getFirst(), argv.subList(1, argv.size()), asking, limits, cancellation);
            }
            ran = environment;
            ranArgv = new java.util.ArrayList<>(List.of(path));
            ranArgv.addAll(arguments);
            return new RunResult.Exited(0, new CapturedOutput(new byte[0], 0));
        }
    }

    static String json(String program, List<String> arguments) {
        StringBuilder out = new StringBuilder("{\"executable\":").append(Json.string(program))
                .append(",\"arguments\":[");
        for (int i = 0; i < arguments.size(); i++) {
            out.append(i == 0 ? "" : ",").append(Json.string(arguments.get(i)));
        }
        return out.append("]}").toString();
    }
}
