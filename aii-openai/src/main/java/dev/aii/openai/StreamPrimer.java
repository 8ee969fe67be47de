package dev.aii.openai;

import dev.aii.model.ModelException;
import java.nio.charset.StandardCharsets;

/**
 * Runs the stream-reading path once on a sample chunk, on a thread of its
 * own, while the server is still working on the first answer. The classes
 * that read events and chunks are then loaded and initialised before the
 * first real text arrives, so that text reaches stdout without that delay.
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
            TurnAssembler turn = new TurnAssembler(piece -> { }, () -> OpenAiBackend.DEFAULT_CONTEXT_SIZE);
            new SseParser(turn::accept).feed(SAMPLE, 0, SAMPLE.length);
            turn.turn(() -> "call_0");
        } catch (ModelException | RuntimeException e) {
            // Only a head start: the real stream does the same work and reports its own failures.
        }
    }
}
