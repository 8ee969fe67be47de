package dev.aii.cli.output;

import dev.aii.model.TextSink;
import dev.aii.policy.Render;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** The lines aii writes on stderr about a server while it answers (not errors). */
public final class ServerNotes {

    private ServerNotes() {
    }

    /** Once per answer, when a busy server (429, 503) is waited for: what it said, escaped. */
    public static String busy(String reason) {
        return "the model server is busy (" + Render.escape(reason) + "); waiting for it, Ctrl-C to stop";
    }

    /** Notes that say, the first time only, that aii waits for a busy server. */
    public static TextSink waitingOnce(Console console) {
        AtomicBoolean noted = new AtomicBoolean();
        return new TextSink() {
            @Override
            public void accept(String piece) {
                // availability has no text
            }

            @Override
            public void waiting(String reason, Duration wait) {
                if (!noted.getAndSet(true)) {
                    console.note(busy(reason));
                }
            }
        };
    }
}
