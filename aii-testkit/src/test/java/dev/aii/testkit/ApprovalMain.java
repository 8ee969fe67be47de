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
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One tool call with the real pieces (the /dev/tty terminal, the terminal
 * approver, the ProcessBuilder runner), as the command line wires them:
 * {@code ApprovalMain <allow file> <arguments JSON> [interrupt|sigint]}. The
 * result goes to stdout. A JSON array of arguments makes one call each, in
 * one answer, each result followed by a LF. With {@code interrupt}, the answer is interrupted
 * shortly after the prompt is shown, as Ctrl-C would; with {@code sigint},
 * SIGINT does what Ctrl-C does in the command line: it declines a pending
 * prompt, else interrupts the answer.
 */
public final class ApprovalMain {

    private ApprovalMain() {
    }

    /** {@code sun.misc.Signal.handle(INT, ...)}, by reflection: this module does not read jdk.unsupported. */
    private static void onSigint(Runnable action) throws ReflectiveOperationException {
        Class<?> signal = Class.forName("sun.misc.Signal");
        Class<?> handler = Class.forName("sun.misc.SignalHandler");
        Object onInt = Proxy.newProxyInstance(ApprovalMain.class.getClassLoader(), new Class<?>[] {handler},
                (proxy, method, a) -> switch (method.getName()) {
                    case "handle" -> {
                        action.run();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == a[0];
                    default -> "Ctrl-C as the command line handles it";
                });
        signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance("INT"),
                onInt);
    }

    public static void main(String[] args) throws ReflectiveOperationException, java.io.IOException {
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
            if (args.length > 2 && args[2].equals("sigint")) {
                onSigint(() -> {
                    if (!answer.declinePendingPrompt()) {
                        answer.interrupt();
                    }
                });
            }
            if (args[1].startsWith("[")) {
                // several calls of one answer, one after the other
                for (com.fasterxml.jackson.databind.JsonNode call : new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(args[1])) {
                    System.out.print(answer.call(call.toString()) + "\n");
                }
            } else {
                System.out.print(answer.call(args[1]));
            }
        }
        System.out.flush();
    }
}
