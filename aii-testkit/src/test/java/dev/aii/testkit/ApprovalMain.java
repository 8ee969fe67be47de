package dev.aii.testkit;

import dev.aii.config.AllowFile;
import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.DevTtyTerminal;
import dev.aii.exec.ExecOutput;
import dev.aii.exec.ProcessBuilderRunner;
import dev.aii.exec.RunCommandTool;
import dev.aii.exec.TerminalApprover;
import dev.aii.policy.ExecPolicy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One tool call with the real pieces (the /dev/tty terminal, the terminal
 * approver, the ProcessBuilder runner), as the command line wires them:
 * {@code ApprovalMain <allow file> <arguments JSON> [interrupt]}. The result
 * goes to stdout. With {@code interrupt}, the answer is interrupted shortly
 * after the prompt is shown, as Ctrl-C would.
 */
public final class ApprovalMain {

    private ApprovalMain() {
    }

    public static void main(String[] args) {
        AllowFile file = AllowFile.at(Path.of(args[0]));
        boolean interrupt = args.length > 2 && args[2].equals("interrupt");
        AtomicReference<AnswerScope> self = new AtomicReference<>();
        ExecOutput output = ExecOutput.to(System.err, false, () -> {
            System.out.flush();
            if (interrupt) {
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    }
                    self.get().interrupt();
                });
            }
        });
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(file.load().rules(), SystemEnvironment.current()))
                .allowFile(file)
                .approver(new TerminalApprover(new DevTtyTerminal(), output))
                .runner(new ProcessBuilderRunner())
                .output(output)
                .build();
        try (AnswerScope answer = tool.startAnswer()) {
            self.set(answer);
            System.out.print(answer.call(args[1]));
        }
        System.out.flush();
    }
}
