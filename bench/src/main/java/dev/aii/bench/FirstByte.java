package dev.aii.bench;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.Reply;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The time aii adds to an answer: from the moment a loopback
 * OpenAI-compatible server starts writing the first text of the answer to the
 * moment that text's first byte arrives on aii's stdout (a pipe read by this
 * program). Each run is a fresh {@code aii "hi"} process, as a user runs it;
 * the answer comes after a pause, so aii is waiting on the stream by then.
 * A second piece of text 200 ms later shows the same path once it has run.
 * Prints every sample, then median and maximum in milliseconds.
 *
 * <p>Usage: {@code FirstByte PATH_OF_AII [RUNS]}
 */
public final class FirstByte {

    private FirstByte() {
    }

    public static void main(String[] args) throws Exception {
        String aii = args[0];
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Path home = Files.createTempDirectory("aii-bench-home");
        double[] millis = new double[runs];
        double[] later = new double[runs];
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            AtomicLong firstText = new AtomicLong();
            AtomicLong laterText = new AtomicLong();
            server.onFrame(frame -> {
                if (frame.contains("Hello") && firstText.get() == 0) {
                    firstText.set(System.nanoTime());
                }
                if (frame.contains("World") && laterText.get() == 0) {
                    laterText.set(System.nanoTime());
                }
            });
            for (int i = 0; i < runs; i++) {
                firstText.set(0);
                laterText.set(0);
                server.enqueue(Reply.stream().pause(Duration.ofMillis(400)).text("Hello.\n")
                        .pause(Duration.ofMillis(200)).text("World.\n").done());
                ProcessBuilder builder = new ProcessBuilder(aii, "hi")
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                        .redirectError(ProcessBuilder.Redirect.DISCARD);
                builder.environment().put("AII_BASE_URL", server.baseUrl());
                builder.environment().put("HOME", home.toString());
                Process process = builder.start();
                InputStream out = process.getInputStream();
                int first = out.read();
                long arrived = System.nanoTime();
                StringBuilder upToLater = new StringBuilder();
                int c;
                while ((c = out.read()) >= 0 && c != 'W') {
                    upToLater.append((char) c);
                }
                long laterArrived = System.nanoTime();
                String rest = upToLater + "W" + new String(out.readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || first != 'H'
                        || !rest.startsWith("ello.") || firstText.get() == 0) {
                    throw new IllegalStateException("run " + i + ": exit " + process.exitValue() + ", output "
                            + (char) first + rest);
                }
                millis[i] = (arrived - firstText.get()) / 1e6;
                later[i] = (laterArrived - laterText.get()) / 1e6;
                System.out.printf("run %2d: first text %.2f ms, later text %.2f ms%n", i + 1, millis[i], later[i]);
            }
        }
        Arrays.sort(millis);
        Arrays.sort(later);
        System.out.printf("first text of the answer, server to stdout: median %.2f ms, max %.2f ms over %d runs%n",
                millis[runs / 2], millis[runs - 1], runs);
        System.out.printf("later text (200 ms on), server to stdout:   median %.2f ms, max %.2f ms over %d runs%n",
                later[runs / 2], later[runs - 1], runs);
    }
}
