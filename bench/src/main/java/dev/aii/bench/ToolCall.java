package dev.aii.bench;

import dev.aii.config.SystemEnvironment;
import dev.aii.exec.AnswerScope;
import dev.aii.exec.ApprovalRequest;
import dev.aii.exec.Approver;
import dev.aii.exec.Cancellation;
import dev.aii.exec.CommandRunner;
import dev.aii.exec.ExecOutput;
import dev.aii.exec.Limits;
import dev.aii.exec.RunCommandTool;
import dev.aii.ffm.Posix;
import dev.aii.policy.Builtins;
import dev.aii.policy.ExecPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The cost of one auto-allowed tool call, {@code pwd}: the whole
 * {@link AnswerScope#call} (JSON arguments, policy, log line, run, result
 * text) against the same runner spawning {@code /usr/bin/pwd} directly, and
 * against ProcessBuilder. Prints median and 90th percentile in microseconds.
 *
 * <p>Usage: {@code ToolCall [ITERATIONS]}
 */
public final class ToolCall {

    private ToolCall() {
    }

    public static void main(String[] args) throws IOException {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        CommandRunner runner = switch (Posix.availability()) {
            case Posix.Available posix -> posix.runner();
            case Posix.Unavailable why -> throw new IllegalStateException(why.warning());
        };
        Approver neverAsked = (ApprovalRequest request, Cancellation c) -> {
            throw new IllegalStateException("pwd is on the default allowlist: nobody is asked");
        };
        RunCommandTool tool = RunCommandTool.builder()
                .policy(ExecPolicy.of(Builtins.defaults(), SystemEnvironment.current()))
                .approver(neverAsked)
                .runner(runner)
                .output(ExecOutput.to(new PrintStream(OutputStream.nullOutputStream()), false, () -> { }))
                .build();
        String json = "{\"executable\":\"pwd\",\"arguments\":[]}";
        LongSupplier toolCall = () -> time(() -> {
            String result;
            try (AnswerScope answer = tool.startAnswer()) {
                result = answer.call(json);
            }
            if (!result.startsWith("exit 0")) {
                throw new IllegalStateException(result);
            }
        });
        LongSupplier direct = () -> time(() -> runner.run("/usr/bin/pwd", List.of(), Limits.DEFAULT, new Cancellation()));
        LongSupplier processBuilder = () -> time(() -> {
            try {
                Process p = new ProcessBuilder("/usr/bin/pwd").redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                p.waitFor();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // The first call of this process, before any warm-up: what a fresh aii pays once (here without the
        // launcher's startup cache, so an upper bound).
        long first = toolCall.getAsLong();
        System.out.printf("%-50s %7.0f us%n", "first tool call of a fresh JVM", first / 1e3);
        report("tool call (AnswerScope.call, POSIX runner)", toolCall, iterations);
        report("POSIX runner spawning /usr/bin/pwd", direct, iterations);
        report("ProcessBuilder spawning /usr/bin/pwd", processBuilder, iterations);
    }

    private static long time(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return System.nanoTime() - start;
    }

    private static void report(String what, LongSupplier sample, int iterations) {
        for (int i = 0; i < iterations; i++) {
            sample.getAsLong();  // warm-up
        }
        long[] nanos = new long[iterations];
        for (int i = 0; i < iterations; i++) {
            nanos[i] = sample.getAsLong();
        }
        Arrays.sort(nanos);
        System.out.printf("%-50s median %7.0f us  p90 %7.0f us%n", what, nanos[iterations / 2] / 1e3,
                nanos[iterations * 9 / 10] / 1e3);
    }
}
