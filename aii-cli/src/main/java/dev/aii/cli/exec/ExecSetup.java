package dev.aii.cli.exec;

import dev.aii.cli.Host;
import dev.aii.cli.backend.Backends;
import dev.aii.cli.flags.Options;
import dev.aii.cli.output.Console;
import dev.aii.cli.process.ProcessEnd;
import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AuditLog;
import dev.aii.exec.ExecOutput;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.TerminalApprover;
import dev.aii.exec.ToolTexts;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import dev.aii.policy.ExecPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Builds the {@code run_command} tool for {@code -x}: loads the allow file
 * once and reports its warnings, and keeps an audit log when
 * {@code AII_AUDIT_LOG} names a file.
 */
public final class ExecSetup {

    /** The variable naming the audit log file. */
    static final String AUDIT_LOG = "AII_AUDIT_LOG";

    private ExecSetup() {
    }

    /** The tool over {@code console}: its warnings, log lines and prompts are ordered with the answer there. */
    static RunCommandTool create(Host host, Console console) {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(host.env()));
        AllowFile.Loaded loaded = file.load();
        loaded.warnings().forEach(console::warning);
        // The first request goes out while the C library is still being bound: only the first tool call waits.
        ExecHost exec = host.exec() instanceof ExecSupply supply
                ? supply.deferred(LocalExec.warningBeforeBinding(), console::warning)
                : host.exec().get();
        exec.fallbackWarning().ifPresent(console::warning);
        host.signals().commandsRunBy(exec);
        if (!host.stdio().stdoutTerminal()) {
            // A command can run for 30 s without a byte for stdout: a reader that left
            // (aii -x … | head -1) stops it then, not when the next text fails to go out.
            Thread.ofPlatform().daemon().name("aii-stdout-watch").start(() -> {
                if (exec.awaitStdoutReaderGone()) {
                    console.stdoutClosedByReader();
                }
            });
            ProcessEnd.atExit(exec::stopWatchingStdout);
        }
        return RunCommandTool.builder()
                .policy(ExecPolicy.of(loaded.rules(), SystemEnvironment.of(host.env(), host.workingDirectory())))
                .allowFile(file)
                .approver(new TerminalApprover(exec.terminal(), console))
                .runner(exec.runner())
                .output(console)
                .platform(host.platform())
                .auditLog(auditLog(host, console))
                .build();
    }

    /**
     * The file log {@code AII_AUDIT_LOG} names (relative to the working
     * directory; a leading {@code ~/} is the home directory), else none.
     */
    static AuditLog auditLog(Host host, ExecOutput output) {
        String value = host.env().get(AUDIT_LOG);
        if (value == null || value.isEmpty()) {
            return AuditLog.none();
        }
        // Where no shell expanded it (env, a service file), ~ still means home, as everywhere in aii.
        Path file = value.equals("~") || value.startsWith("~/")
                ? Path.of(host.home()).resolve(value.substring(1).replaceFirst("^/+", ""))
                : host.workingDirectory().resolve(value);
        return AuditLog.appendingTo(file, output::warning);
    }

    /**
     * The tool when {@code -x} is on (after printing the startup warnings:
     * allow file, runner fallback, a model server on another machine), else none.
     */
    public static Optional<RunCommandTool> toolFor(Options options, Host host, Console console) {
        if (!options.exec) {
            return Optional.empty();
        }
        RunCommandTool tool = create(host, console);
        Backends.remoteWarning(host.env()).ifPresent(console::warning);
        return Optional.of(tool);
    }

    /**
     * A session's options: the instructions for {@code systemPrompt} and the
     * tool, if any, whose calls tell {@code console} that the model answered
     * and, once the result goes back, that the next request is sent (the
     * waiting line, between tool calls as before the first).
     */
    public static SessionOptions sessionOptions(Host host, Optional<String> systemPrompt, Optional<RunCommandTool> tool,
            Console console) {
        return new SessionOptions(sessionInstructions(host, systemPrompt, tool.isPresent()),
                tool.map(t -> List.of(waitingAround(t.spec(), console, settle(host)))).orElse(List.of()));
    }

    /** What a tool call waits for first: the host of its commands, still being made for the first one. */
    private static Runnable settle(Host host) {
        return host.exec() instanceof ExecSupply supply ? supply::settle : () -> { };
    }

    private static ToolSpec waitingAround(ToolSpec spec, Console console, Runnable settle) {
        return new ToolSpec(spec.name(), spec.description(), spec.parametersSchema(), arguments -> {
            console.stopWaiting();
            try {
                // before the call's command line or prompt, so that a warning only binding could tell comes first
                settle.run();
                return spec.handler().call(arguments);
            } finally {
                console.requestSent();
            }
        });
    }

    /** The exec part of the session instructions. */
    static String instructions(Host host) {
        return ToolTexts.execInstructions(host.platform(), host.home(), host.workingDirectory().toString());
    }

    /** The session instructions: the system prompt (interactive), then with {@code -x} the exec text. */
    static Optional<String> sessionInstructions(Host host, Optional<String> systemPrompt, boolean exec) {
        return ToolTexts.sessionInstructions(systemPrompt, exec ? Optional.of(instructions(host)) : Optional.empty());
    }
}
