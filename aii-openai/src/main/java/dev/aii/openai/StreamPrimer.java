package dev.aii.openai;

import dev.aii.model.ModelException;
import java.nio.charset.StandardCharsets;

/**
 * Runs the JSON and stream-reading paths once on samples, on a thread of its
 * own, from the moment a backend is made: while the HTTP client starts and
 * the server answers the first requests, the JSON library builds its tree
 * reader and writer (tens of milliseconds in a fresh process) and the
 * classes that read events and chunks are loaded and initialised, so that
 * neither the model list nor the first text waits for that.
 */
final class StreamPrimer {

    /** A chunk with the parts a real one has: role, text, a tool-call fragment, a finish reason. */
    private static final byte[] SAMPLE = ("data: {\"id\":\"p\",\"object\":\"chat.completion.chunk\",\"choices\":"
            + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\",\"tool_calls\":[{\"index\":0,"
            + "\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"run_command\",\"arguments\":\"{}\"}}]},"
            + "\"finish_reason\":null}]}\r\n\r\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

    private StreamPrimer() {
    }

    static void prime() {
        Thread thread = new Thread(StreamPrimer::run, "aii-stream-primer");
        thread.setDaemon(true);
        thread.start();
    }

    private static void run() {
        try {
            // What the first requests need: a model list read, a chat request written.
            Json.parse("{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"context_length\":8}]}")
                    .ifPresent(list -> ModelListing.parse(Json.write(list)));
            Json.write(Messages.request("m", java.util.Optional.of("s"), java.util.List.of(Messages.user("hi")),
                    Json.object().arrayNode()));
            TurnAssembler turn = new TurnAssembler(piece -> { }, () -> OpenAiBackend.DEFAULT_CONTEXT_SIZE);
            new SseParser(turn::accept).feed(SAMPLE, 0, SAMPLE.length);
            turn.turn(() -> "call_0");
        } catch (ModelException | RuntimeException e) {
            // Only a head start: the real stream does the same work and reports its own failures.
        }
    }
}
