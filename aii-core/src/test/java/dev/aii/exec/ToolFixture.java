package dev.aii.exec;

import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.RuleSet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** A tool over real processes, a fake terminal and a captured stderr. */
final class ToolFixture {

    /** A search path of trusted directories only, so results do not depend on the test machine's PATH. */
    static final String PATH = "/usr/local/bin:/usr/bin:/bin";

    final FakeTerminal terminal;
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    /** What the tool reported to its audit log, in order. */
    final List<AuditRecord> audit = Collections.synchronizedList(new ArrayList<>());
    final RunCommandTool tool;
    /** The answer the calls are made in; {@link #nextAnswer()} ends it and opens another. */
    AnswerScope answer;

    ToolFixture(RuleSet rules, FakeTerminal terminal, AllowFile allowFile, Limits limits, boolean json) {
        this(rules, terminal, allowFile, limits, json, new ProcessBuilderRunner());
    }

    /** A tool whose commands {@code runner} runs. */
    ToolFixture(RuleSet rules, FakeTerminal terminal, AllowFile allowFile, Limits limits, boolean json,
                CommandRunner runner) {
        this.terminal = terminal;
        ExecOutput output = ExecOutput.to(new PrintStream(err, true, StandardCharsets.UTF_8), json, () -> { });
        RunCommandTool.Builder builder = RunCommandTool.builder()
                .policy(ExecPolicy.of(rules, SystemEnvironment.of(Map.of("PATH", PATH), Path.of(""))))
                .approver(new TerminalApprover(terminal, output))
                .runner(runner)
                .output(output)
                .limits(limits)
                .platform(Platform.OTHER)
                .auditLog(audit::add);
        if (allowFile != null) {
            builder.allowFile(allowFile);
        }
        this.tool = builder.build();
        this.answer = tool.startAnswer();
    }

    ToolFixture(RuleSet rules, FakeTerminal terminal) {
        this(rules, terminal, null, Limits.DEFAULT, false);
    }

    String call(String executable, String... arguments) {
        return answer.call(json(executable, arguments));
    }

    /** Closes the answer and opens the next one. */
    void nextAnswer() {
        answer.close();
        answer = tool.startAnswer();
    }

    String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** The tool's arguments as a model would send them. */
    static String json(String executable, String... arguments) {
        StringBuilder out = new StringBuilder("{\"executable\":").append(string(executable)).append(",\"arguments\":[");
        for (int i = 0; i < arguments.length; i++) {
            out.append(i == 0 ? "" : ",").append(string(arguments[i]));
        }
        return out.append("]}").toString();
    }

    private static String string(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.chars().forEach(c -> {
            if (c == '"' || c == '\\') {
                out.append('\\').append((char) c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append((char) c);
            }
        });
        return out.append('"').toString();
    }
}
