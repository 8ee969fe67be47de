package dev.aii.exec;

import dev.aii.policy.Render;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Asks on the user's terminal, one prompt at a time:
 * {@snippet lang=text :
 * aii: run this command?
 *   git status --short
 *   [y] yes once   [a] always allow "git status"   [N] no
 * > 
 * }
 * The first character of the answer, lowercased, decides: {@code y} once,
 * {@code a} always (only when offered), anything else, an empty line, end of
 * input, a read error or a cancellation is no. There is no re-prompt.
 */
public final class TerminalApprover implements Approver {

    /** Appended to the command when its program is not in a trusted directory. */
    static final String UNTRUSTED_SUFFIX = " (not in a system directory)";

    /** How often a prompt waiting for another one checks for cancellation. */
    private static final long LOCK_POLL_MILLIS = 20;

    private final Terminal terminal;
    private final ExecOutput output;
    // Fair, so prompts are answered in the order their calls asked.
    private final ReentrantLock prompting = new ReentrantLock(true);

    /**
     * An approver over {@code terminal}; {@code output} readies stdout before
     * each prompt.
     */
    public TerminalApprover(Terminal terminal, ExecOutput output) {
        this.terminal = Objects.requireNonNull(terminal, "terminal");
        this.output = Objects.requireNonNull(output, "output");
    }

    @Override
    public Answer ask(ApprovalRequest request, Cancellation cancellation) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(cancellation, "cancellation");
        if (!lock(cancellation)) {
            return Answer.NO;
        }
        try {
            output.beforeTerminal();
            Terminal.Conversation conversation;
            try {
                conversation = terminal.open();
            } catch (IOException e) {
                return Answer.NO_TERMINAL;
            }
            try (conversation) {
                conversation.discardTypeAhead();
                conversation.write(prompt(request));
                Optional<String> line = conversation.readLine(cancellation);
                if (cancellation.isCancelled() || line.isEmpty()) {
                    // Ctrl-C or end of input leaves the cursor after "> ": end that line, so that what
                    // follows (the rest of the answer) does not start on the prompt's line.
                    conversation.write("\n");
                }
                return cancellation.isCancelled() ? Answer.NO : answer(line, request.alwaysPrefix().isPresent());
            } catch (IOException | RuntimeException e) {
                // A terminal that fails mid-prompt cannot say yes.
                return Answer.NO;
            }
        } finally {
            prompting.unlock();
        }
    }

    /** Waits for the prompt to be free; false when the answer was cancelled meanwhile. */
    private boolean lock(Cancellation cancellation) {
        try {
            while (!prompting.tryLock(LOCK_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (cancellation.isCancelled()) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The exact text written to the terminal for {@code request}. */
    static String prompt(ApprovalRequest request) {
        ResolvedCommand command = request.command();
        StringBuilder out = new StringBuilder(128);
        out.append("aii: run this command?\n");
        out.append("  ").append(command.display());
        if (!command.trusted()) {
            out.append(UNTRUSTED_SUFFIX);
        }
        out.append('\n');
        for (String note : request.notes()) {
            out.append("  ").append(note).append('\n');
        }
        out.append("  [y] yes once");
        Optional<Rule> prefix = request.alwaysPrefix();
        prefix.ifPresent(rule -> out.append("   [a] always allow \"").append(Render.render(rule.tokens())).append('"'));
        out.append("   [N] no\n> ");
        return out.toString();
    }

    /** The answer a line means; empty (end of input) is no. */
    static Answer answer(Optional<String> line, boolean alwaysOffered) {
        if (line.isEmpty() || line.get().isEmpty()) {
            return Answer.NO;
        }
        String first = new String(Character.toChars(line.get().codePointAt(0))).toLowerCase(Locale.ROOT);
        return switch (first) {
            case "y" -> Answer.ONCE;
            case "a" -> alwaysOffered ? Answer.ALWAYS : Answer.NO;
            default -> Answer.NO;
        };
    }
}
