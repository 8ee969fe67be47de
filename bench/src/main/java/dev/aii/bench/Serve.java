package dev.aii.bench;

import dev.aii.testkit.FakeOpenAiServer;
import dev.aii.testkit.RecordedRequest;
import dev.aii.testkit.Reply;
import dev.aii.testkit.Wire;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An instant model server for bench/run.sh: a loopback OpenAI-compatible
 * server (aii-testkit's) that answers every chat request at once. Prints its
 * base URL on the first line of stdout, serves until its stdin ends, then
 * prints on stdout how many requests and body bytes each path received (so
 * that "sent once" can be checked).
 *
 * <p>Usage: {@code Serve text|tool [MILLIS]}: {@code text} answers {@code Hello.};
 * {@code tool} answers each odd request with a {@code run_command} call of
 * {@code pwd} and each even one with {@code Done.}, as one {@code aii -x}
 * run asks twice. With {@code MILLIS}, the first answer of each pair
 * ({@code Hello.}, or the call of {@code pwd}) comes that long after the
 * request, as a model's first tokens do; the rest at once.
 */
public final class Serve {

    private static final int ANSWERS = 50_000;

    private Serve() {
    }

    public static void main(String[] args) throws IOException {
        boolean tool = args.length > 0 && args[0].equals("tool");
        Duration think = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 0);
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            for (int i = 0; i < ANSWERS; i++) {
                if (tool) {
                    server.enqueue(Reply.stream(Wire.OPENAI).pause(think)
                                    .toolCall("run_command", "{\"executable\":\"pwd\",\"arguments\":[]}").done(),
                            Reply.text("Done."));
                } else {
                    server.enqueue(Reply.stream(Wire.OPENAI).pause(think).text("Hello.").done());
                }
            }
            System.out.println(server.baseUrl());
            System.out.flush();
            while (System.in.read() >= 0) {
                // serve until stdin ends
            }
            Map<String, long[]> received = new LinkedHashMap<>();
            for (RecordedRequest request : server.requests()) {
                long[] counts = received.computeIfAbsent(request.method() + " " + request.path(), p -> new long[2]);
                counts[0]++;
                counts[1] += request.body().getBytes(StandardCharsets.UTF_8).length;
            }
            received.forEach((path, counts) ->
                    System.out.println(path + ": " + counts[0] + " requests, " + counts[1] + " body bytes"));
        }
    }
}
