package dev.aii.cli;

import dev.aii.policy.Decision;
import dev.aii.policy.Render;
import java.util.List;

/**
 * What {@code aii --check} prints about one decision for people: one line
 * ({@link CheckJson} has the same facts as JSON, for {@code -j}). Rules,
 * prefixes and paths are rendered as at the prompt (escaped, then quoted),
 * because this is shown on a terminal and a hand-edited rule or a file name
 * may hold control characters.
 */
final class Check {

    private Check() {
    }

    /** The line, without its LF: {@code allow (rule: ls)}, {@code ask (guarded: ...)}, {@code not found: gti}, ... */
    static String line(Decision decision, String executable) {
        // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
        if (decision instanceof Decision.Allow allow) {
            return "allow (rule: " + Render.render(allow.rule().lineTokens()) + ")";
        }
        if (decision instanceof Decision.Ask ask) {
            return "ask (" + switch (ask.always()) {
                case OFFERED -> (ask.prefix().exact() ? "always would store exactly: " : "always would store: ")
                        + Render.render(ask.prefix().tokens());
                case NEVER_ALWAYS_PROGRAM -> "never-always program";
                case NOT_IN_SYSTEM_DIRECTORY -> "not in a system directory: "
                        + Render.render(List.of(ask.command().path()));
                case PREFIX_NOT_PLAIN -> "prefix not plain: " + Render.render(ask.prefix().tokens());
                case GUARDED -> "guarded: " + String.join("; ", ask.guardReasons());
            } + ")";
        }
        Decision.Refuse refuse = (Decision.Refuse) decision;
        return refuse.reason() == Decision.Refusal.NOT_FOUND
                ? "not found: " + Render.render(List.of(executable))
                : "refused: " + Render.escape(refuse.message());
    }
}
