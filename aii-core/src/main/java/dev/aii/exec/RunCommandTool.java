package dev.aii.exec;

import dev.aii.config.AllowFile;
import dev.aii.config.IoReasons;
import dev.aii.model.ToolSpec;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.Render;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code run_command} tool: turns one call from a model into one result
 * string, never throwing. Order: the per-answer limit; the JSON arguments;
 * the policy's validation, resolution and matching; the user's approval when
 * no rule matches (with a note for a guarded argument form); the log line; the
 * run. Every call, whatever became of it, is reported to the {@link AuditLog}.
 *
 * <p>Calls are made inside an answer of the model, an {@link AnswerScope}
 * that {@link #startAnswer()} opens: it counts the answer's commands and is
 * what an interrupt stops, so that neither can reach another answer.
 *
 * {@snippet :
 * RunCommandTool tool = RunCommandTool.builder()
 *         .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.current()))
 *         .approver(myApprover)                         // or TerminalApprover over /dev/tty
 *         .runner(new ProcessBuilderRunner())
 *         .output(ExecOutput.to(System.err, false, System.out::flush))
 *         .build();
 * try (AnswerScope answer = tool.startAnswer()) {
 *     String result = answer.call("{\"executable\":\"ls\",\"arguments\":[\"-l\"]}");
 * }
 * }
 */
public final class RunCommandTool {

    private final AtomicReference<ExecPolicy> policy;
    private final Optional<AllowFile> allowFile;
    private final Approver approver;
    private final CommandRunner runner;
    private final ExecOutput output;
    private final Limits limits;
    private final Platform platform;
    private final AuditLog auditLog;
    private final Clock clock;
    private final AtomicBoolean auditFailed = new AtomicBoolean();
    /** Which gits are new enough to run under a rule, asked once each. */
    private final GitVersion gitVersions = new GitVersion();
    /** The answer each thread has open, for the calls that come through {@link #spec()}. */
    private final ThreadLocal<AnswerScope> openOnThread = new ThreadLocal<>();

    private RunCommandTool(Builder b) {
        this.policy = new AtomicReference<>(Objects.requireNonNull(b.policy, "policy"));
        this.allowFile = Optional.ofNullable(b.allowFile);
        this.approver = Objects.requireNonNull(b.approver, "approver");
        this.runner = Objects.requireNonNull(b.runner, "runner");
        this.output = Objects.requireNonNull(b.output, "output");
        this.limits = Objects.requireNonNull(b.limits, "limits");
        this.platform = Objects.requireNonNull(b.platform, "platform");
        this.auditLog = Objects.requireNonNull(b.auditLog, "auditLog");
        this.clock = Objects.requireNonNull(b.clock, "clock");
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The tool as a session offers it to the model. A session makes its tool
     * calls on the thread that called {@code respond}, so each call goes to the
     * answer that thread opened with {@link #startAnswer()}; a call on a
     * thread with no open answer is a mistake of the program and throws.
     */
    public ToolSpec spec() {
        return new ToolSpec(ToolTexts.TOOL_NAME, ToolTexts.toolDescription(platform), ToolTexts.parametersSchema(),
                this::callInOpenAnswer);
    }

    private String callInOpenAnswer(String argumentsJson) {
        AnswerScope open = openOnThread.get();
        if (open == null || open.isClosed()) {
            throw new IllegalStateException("run_command was called outside an answer: open one around each answer"
                    + " of the model with try (AnswerScope answer = tool.startAnswer()) { ... }");
        }
        return open.call(argumentsJson);
    }

    /** The policy now, including rules added by "always" answers. */
    public ExecPolicy policy() {
        return policy.get();
    }

    public Limits limits() {
        return limits;
    }

    /**
     * Opens one answer of the model: its own count of commands (at most
     * {@link Limits#commandsPerAnswer()}) and its own interruption. Until it
     * is closed, calls through {@link #spec()} on this thread go to it; the
     * answer's own {@link AnswerScope#call} works from any thread.
     */
    public AnswerScope startAnswer() {
        AnswerScope previous = openOnThread.get();
        AnswerScope scope = new AnswerScope(this, previous != null && !previous.isClosed() ? previous : null);
        openOnThread.set(scope);
        return scope;
    }

    /** Gives this thread back the answer that was open before {@code scope}, if {@code scope} is its open one. */
    void closed(AnswerScope scope) {
        if (openOnThread.get() == scope) {
            AnswerScope outer = scope.outer();
            if (outer == null || outer.isClosed()) {
                openOnThread.remove();
            } else {
                openOnThread.set(outer);
            }
        }
    }

    /** One call of the model in {@code scope}; never throws for expected failures. */
    String call(AnswerScope scope, String argumentsJson) {
        ExecPolicy now = policy.get();
        CallAudit audit = new CallAudit(clock.instant(), now.environment().workingDirectory());
        String result = handle(argumentsJson, now, audit, scope);
        report(audit.record());
        return result;
    }

    private String handle(String argumentsJson, ExecPolicy now, CallAudit audit, AnswerScope current) {
        ToolArguments.Parse parse = ToolArguments.parse(argumentsJson);
        parse.arguments().ifPresent(a -> audit.given(a.executable(), a.arguments()));
        if (current.countCall() > limits.commandsPerAnswer()) {
            return audit.denied("limit", ToolTexts.DENIED_TOO_MANY);
        }
        if (current.cancellation().isCancelled()) {
            return audit.denied("interrupted", ToolTexts.INTERRUPTED);
        }
        if (parse.arguments().isEmpty()) {
            return audit.error("invalid arguments", parse.error());
        }
        ToolArguments args = parse.arguments().get();
        Decision decision = now.evaluate(args.executable(), args.arguments());
        if (decision instanceof Decision.Refuse refuse) {
            return audit.error(CallAudit.refused(refuse.reason()), refuse.message());
        } else if (decision instanceof Decision.Allow allow) {
            audit.resolved(allow.command());
            UnderRule.Setup setup = UnderRule.prepare(allow.command(), runner, limits, current.cancellation(),
                    gitVersions);
            if (setup instanceof UnderRule.Setup.Ask needs) {
                // The rule matched, but aii cannot give the command the environment it needs: as a guarded form.
                ResolvedCommand command = allow.command();
                Decision.Ask ask = new Decision.Ask(command, ExecPolicy.alwaysRule(command.program(),
                        command.arguments()), Decision.Always.GUARDED, List.of(needs.reason()));
                audit.guarded(ask.guardReasons());
                return askThenRun(ask, current, audit);
            }
            if (!(setup instanceof UnderRule.Setup.Ready ready)) {
                return audit.error("launch failed",
                        ToolTexts.couldNotLaunch(allow.command().executable(), UnderRule.UNCHECKED));
            }
            return run(allow.command(), ready.environment(), current, audit, CallAudit.allowedBy(allow.rule()));
        } else if (decision instanceof Decision.Ask ask) {
            audit.resolved(ask.command());
            audit.guarded(ask.guardReasons());
            return askThenRun(ask, current, audit);
        } else {
            throw new IllegalStateException("unknown decision: " + decision);
        }
    }

    /** Hands a record to the audit log; a log that throws never fails the call. */
    private void report(AuditRecord record) {
        try {
            auditLog.record(record);
        } catch (RuntimeException e) {
            if (auditFailed.compareAndSet(false, true)) {
                output.warning("could not write audit log: " + e);
            }
        }
    }

    private String askThenRun(Decision.Ask ask, AnswerScope current, CallAudit audit) {
        List<String> notes = ask.guardReasons().stream().map(ToolTexts::guardNote).toList();
        ApprovalRequest request = new ApprovalRequest(ask.command(), ask.alwaysPrefix(), notes);
        Cancellation prompt = new Cancellation();
        Approver.Answer reply;
        try (Cancellation.Registration ignored = current.cancellation().onCancel(prompt::cancel);
             Cancellation.Registration pending = current.pending(prompt)) {
            reply = approver.ask(request, prompt);
        }
        if (current.cancellation().isCancelled()) {
            return audit.denied("interrupted", ToolTexts.INTERRUPTED);
        }
        if (prompt.isCancelled()) {
            return audit.denied("user declined", ToolTexts.DENIED_BY_USER);
        }
        return switch (reply) {
            case ONCE -> run(ask.command(), Map.of(), current, audit, "approved once");
            case ALWAYS -> {
                if (ask.alwaysPrefix().isEmpty()) {
                    // "Always" where it was not offered is not an answer the prompt allows: no.
                    yield audit.denied("user declined", ToolTexts.DENIED_BY_USER);
                }
                remember(ask.alwaysPrefix().get(), current.cancellation());
                yield run(ask.command(), Map.of(), current, audit, "approved always");
            }
            case NO -> audit.denied("user declined", ToolTexts.DENIED_BY_USER);
            case NO_TERMINAL -> audit.denied("no terminal", ToolTexts.DENIED_NO_TERMINAL);
        };
    }

    /**
     * Adds the rule for the rest of this process at once, then persists it; a
     * failure to save is a warning. The wait for another process's lock on the
     * file ends with the answer's cancellation (Ctrl-C), which then also stops
     * the command before it starts.
     */
    private void remember(Rule rule, Cancellation cancellation) {
        policy.updateAndGet(p -> p.withRule(rule));
        if (allowFile.isEmpty()) {
            return;
        }
        try {
            allowFile.get().add(rule, cancellation::isCancelled);
        } catch (AllowFile.LockedException e) {
            output.warning("could not save rule " + Render.render(rule.lineTokens()) + ": " + e.getMessage());
        } catch (IOException e) {
            output.warning("could not save rule to " + allowFile.get().path() + ": " + IoReasons.describe(e));
        }
    }

    private String run(ResolvedCommand command, Map<String, String> environment, AnswerScope current,
                       CallAudit audit, String why) {
        output.commandLog(command.display());
        long start = System.nanoTime();
        RunResult result = environment.isEmpty()
                ? runner.run(command.path(), command.arguments(), limits, current.cancellation())
                : runner.run(command.path(), command.arguments(), environment, limits, current.cancellation());
        audit.ran(why, result, Duration.ofNanos(System.nanoTime() - start));
        int cap = limits.outputCap();
        if (result instanceof RunResult.Exited exited) {
            return ToolTexts.exited(exited.status(), exited.output(), cap);
        } else if (result instanceof RunResult.TimedOut timedOut) {
            return ToolTexts.timedOut(limits.timeout().toSeconds(), timedOut.output(), cap);
        } else if (result instanceof RunResult.Interrupted interrupted) {
            return ToolTexts.interrupted(interrupted.output(), cap);
        } else if (result instanceof RunResult.LaunchFailed failed) {
            return ToolTexts.couldNotLaunch(command.executable(), failed.reason());
        } else {
            throw new IllegalStateException("unknown run result: " + result);
        }
    }

    /** Assembles a {@link RunCommandTool}. Policy, approver, runner and output are required. */
    public static final class Builder {
        private ExecPolicy policy;
        private AllowFile allowFile;
        private Approver approver;
        private CommandRunner runner;
        private ExecOutput output;
        private Limits limits = Limits.DEFAULT;
        private Platform platform = Platform.current();
        private AuditLog auditLog = AuditLog.none();
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        public Builder policy(ExecPolicy value) {
            this.policy = value;
            return this;
        }

        /** Where "always" rules are saved; without one they last for this process only. */
        public Builder allowFile(AllowFile value) {
            this.allowFile = value;
            return this;
        }

        public Builder approver(Approver value) {
            this.approver = value;
            return this;
        }

        public Builder runner(CommandRunner value) {
            this.runner = value;
            return this;
        }

        public Builder output(ExecOutput value) {
            this.output = value;
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = value;
            return this;
        }

        public Builder platform(Platform value) {
            this.platform = value;
            return this;
        }

        /** Where every call is reported; by default nowhere. */
        public Builder auditLog(AuditLog value) {
            this.auditLog = value;
            return this;
        }

        /** The clock that stamps audit records; the system clock in UTC by default. */
        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        public RunCommandTool build() {
            return new RunCommandTool(this);
        }
    }
}
