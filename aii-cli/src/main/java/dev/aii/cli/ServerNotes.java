package dev.aii.cli;

import dev.aii.policy.Render;

/** The lines aii writes on stderr about a server while it answers (not errors). */
final class ServerNotes {

    private ServerNotes() {
    }

    /** Once per answer, when a busy server (429, 503) is waited for: what it said, escaped. */
    static String busy(String reason) {
        return "the model server is busy (" + Render.escape(reason) + "); waiting for it, Ctrl-C to stop";
    }
}
