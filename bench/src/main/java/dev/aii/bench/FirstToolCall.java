package dev.aii.bench;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The first tool call of a fresh {@code aii -x} process against later ones,
 * timed on the wire by a loopback OpenAI-compatible server: each run is one
 * fresh {@code aii -x hi}, which the server answers with a call of
 * {@code pwd} after {@code THINK} milliseconds (as a model takes time to
 * produce a call), then at once with 15 more calls of {@code pwd} (16 is
 * the most one answer may run), then with {@code Done.}. A call's time is
 * from the moment the server has written the call to the moment it starts
 * answering the request that carries its result: reading the call, the
 * decision, the command, and the next request. Prints each run (the first
 * call, the second, and the median of the last five), then the medians over
 * the runs in milliseconds, and the first call over the later ones.
 *
 * <p>Usage: {@code FirstToolCall PATH_OF_AII [RUNS] [THINK]}
 */
public final class FirstToolCall {

    private static final String PWD = "{\"executable\":\"pwd\",\"arguments\":[]}";
    private static final int CALLS = 16;
    private static final int LATER = 5;

    private FirstToolCall() {
    }

    public static void main(String[] args) throws Exception {
        String aii = args[0];
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long think = args.length > 2 ? Long.parseLong(args[2]) : 400;
        Path home = Files.createTempDirectory("aii-bench-home");
        Path work = Files.createTempDirectory("aii-bench-work");
        double[] first = new double[runs];
        double[] second = new double[runs];
        double[] later = new double[runs];
        double[] over = new double[runs];
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            List<long[]> frames = new ArrayList<>();   // {nanoTime, 1 if it ends a reply}
            server.onFrame(frame -> {
                synchronized (frames) {
                    frames.add(new long[] {System.nanoTime(), frame.contains("[DONE]") ? 1 : 0});
                }
            });
            for (int i = 0; i < runs; i++) {
                synchronized (frames) {
                    frames.clear();
                }
                server.enqueue(Reply.stream(Wire.OPENAI).pause(Duration.ofMillis(think)).toolCall("run_command", PWD).done());
                for (int c = 1; c < CALLS; c++) {
                    server.enqueue(Reply.stream(Wire.OPENAI).toolCall("run_command", PWD).done());
                }
                server.enqueue(Reply.text("Done."));
                ProcessBuilder builder = new ProcessBuilder(aii, "-x", "hi").directory(work.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD);
                builder.environment().put("AII_BASE_URL", server.baseUrl());
                builder.environment().put("HOME", home.toString());
                Process process = builder.start();
                if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                    process.destroyForcibly();
                    throw new IllegalStateException("aii -x hi failed in run " + (i + 1));
                }
                long[] gaps;
                synchronized (frames) {
                    gaps = gaps(frames);
                }
                first[i] = gaps[0] / 1e6;
                second[i] = gaps[1] / 1e6;
                double[] last = new double[LATER];
                for (int k = 0; k < LATER; k++) {
                    last[k] = gaps[CALLS - LATER + k] / 1e6;
                }
                later[i] = median(last);
                over[i] = first[i] - later[i];
                System.out.printf("run %2d: first call %7.2f ms, second %7.2f ms, last five %7.2f ms, first over them %7.2f ms%n",
                        i + 1, first[i], second[i], later[i], over[i]);
            }
        }
        System.out.printf("median (%d fresh processes, the model thinking %d ms before the first call): "
                + "first call %.2f ms, second %.2f ms, calls %d to %d %.2f ms, first over them %.2f ms%n",
                runs, think, median(first), median(second), CALLS - LATER + 1, CALLS, median(later), median(over));
    }

    /** The gaps between each reply's last frame and the next reply's first one, one a call. */
    private static long[] gaps(List<long[]> frames) {
        List<Long> ends = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        boolean afterEnd = true;
        for (long[] f : frames) {
            if (afterEnd) {
                starts.add(f[0]);
            }
            afterEnd = f[1] == 1;
            if (afterEnd) {
                ends.add(f[0]);
            }
        }
        if (starts.size() != CALLS + 1 || ends.size() != CALLS + 1) {
            throw new IllegalStateException("expected " + (CALLS + 1) + " streamed replies, saw " + starts.size());
        }
        long[] gaps = new long[CALLS];
        for (int c = 0; c < CALLS; c++) {
            gaps[c] = starts.get(c + 1) - ends.get(c);
        }
        return gaps;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
