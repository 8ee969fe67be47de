package dev.aii.exec;

import dev.aii.policy.Render;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import java.io.IOException;
import java.util.List;
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
 * For an exact rule (a program without a guard table) the offer reads
 * {@code [a] always allow exactly "shuf data.txt"}.
 * The first character of the answer, lowercased, decides: {@code y} once,
 * {@code a} always (only when offered), anything else, an empty line, end of
 * input, a read error or a cancellation is no. There is no re-prompt.
 *
 * <p>Text that reached the terminal before the prompt (the model's answer
 * through a pipe, a command that opened the terminal device by name) may have
 * left it in any state. So each prompt is one write that first undoes what
 * could move the prompt ({@link #UNDO}: scroll region, origin mode,
 * margins, the alternate screen, an unfinished escape sequence), takes the
 * cursor to column 0 of a cleared line ({@link #COLUMN_ZERO}, after a line
 * feed when the answer's line may still be open there), then resets what
 * could hide or garble the text ({@link #RESET}), then says what runs. A
 * display wider than {@value #LONG_DISPLAY} columns, which wraps on a
 * common screen and could draw a false prompt of its own, is followed by a
 * summary line naming the program, so the lines just above {@code > } always
 * name what runs.
 */
public final class TerminalApprover implements Approver {

    /** Appended to the command when its program is not in a trusted directory. */
    static final String UNTRUSTED_SUFFIX = " (not in a system directory)";

    /**
     * The start of every prompt: all character attributes off (no concealed,
     * invisible or blinking text), the ASCII set in G0 (not line drawing),
     * the cursor shown.
     */
    static final String RESET = "\u001b[0m\u001b(B\u001b[?25h";

    /**
     * The first bytes of every prompt, which give the screen back whatever a
     * command that opened the terminal by its name left it in: CAN, and ST
     * for terminals that end a control string only so, end an escape sequence
     * or a control string left unfinished (which would swallow the prompt);
     * the normal screen instead of the alternate one;
     * then, between saving the cursor (DECSC) and restoring it (DECRC), so
     * that the prompt still starts where the cursor is, origin mode off, no
     * left and right margins, and a scroll region of the whole screen (a
     * two-line region would scroll the prompt's first lines away; the second
     * form is for terminals that do not take the first as a reset).
     */
    static final String UNDO = "\u0018\u001b\\\u001b[?47l\u001b7\u001b[?6l\u001b[?69l\u001b[r\u001b[1;9999r\u001b8";

    /**
     * Written after {@link #UNDO} (and the LF that ends an open line), just
     * before {@link #RESET}: carriage return to column 0, insert mode off,
     * shift in and ASCII in G0 and G1 (so no shift chooses line drawing), then
     * UTF-8 (ISO 2022 mode would show it as other characters; in UTF-8 mode
     * some terminals ignore shifts, hence this order), a space taken back
     * (it uses up a pending single shift), a single-width line, the screen
     * not in reverse video, line wrap on (so a long display is not cut at the
     * margin), everything from the cursor to the end of the screen erased
     * (text left on the prompt's line or below it, double-width line marks
     * with it), and the default foreground and background colours back (a
     * foreground set to the background hides text as well as SGR 8 does).
     */
    static final String COLUMN_ZERO = "\r\u001b[4l\u000f\u001b(B\u001b)B\u001b%G \r\u001b#5\u001b[?5l\u001b[?7h\u001b[J"
            + "\u001b]110\u0007\u001b]111\u0007";

    /** A display wider than this many columns gets the summary line. */
    static final int LONG_DISPLAY = 80;

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
            boolean lineOpen = output.beforePrompt();
            Terminal.Conversation conversation;
            try {
                conversation = terminal.open();
            } catch (IOException e) {
                return Answer.NO_TERMINAL;
            }
            try (conversation) {
                conversation.discardTypeAhead();
                // One write, so nothing another process writes to the terminal can land inside it.
                conversation.write(lead(lineOpen) + prompt(request));
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

    /**
     * What comes before {@link #RESET}: {@link #UNDO}, then
     * {@link #COLUMN_ZERO}, with a LF between them when {@code lineOpen} (a
     * line of the answer may stand unended on the terminal, which a carriage
     * return alone would overwrite).
     */
    static String lead(boolean lineOpen) {
        return lineOpen ? UNDO + "\n" + COLUMN_ZERO : UNDO + COLUMN_ZERO;
    }

    /** The text written to the terminal for {@code request} after the lead: the reset, then the question. */
    static String prompt(ApprovalRequest request) {
        ResolvedCommand command = request.command();
        String display = command.display();
        StringBuilder out = new StringBuilder(128 + display.length());
        out.append(RESET);
        out.append("aii: run this command?\n");
        out.append("  ").append(display);
        if (!command.trusted()) {
            out.append(UNTRUSTED_SUFFIX);
        }
        out.append('\n');
        for (String note : request.notes()) {
            out.append("  ").append(note).append('\n');
        }
        summary(command).ifPresent(line -> out.append(line).append('\n'));
        out.append("  [y] yes once");
        Optional<Rule> prefix = request.alwaysPrefix();
        prefix.ifPresent(rule -> out.append(rule.exact() ? "   [a] always allow exactly \"" : "   [a] always allow \"")
                .append(Render.render(rule.tokens())).append('"'));
        out.append("   [N] no\n> ");
        return out.toString();
    }

    /**
     * For a display wider than {@value #LONG_DISPLAY} columns of a terminal
     * ({@link ResolvedCommand#display()}, as escaped and quoted, without the
     * indent and the untrusted suffix; a wide character takes two columns, a
     * combining mark none), the line
     * {@code   (<program>: <N> arguments, <M> characters)}: the program as
     * the display starts with it (its name when trusted, else its path),
     * rendered; N the number of arguments ({@code 1 argument} for one); M
     * the display's length in Unicode code points.
     */
    static Optional<String> summary(ResolvedCommand command) {
        String display = command.display();
        int length = display.codePointCount(0, display.length());
        if (ScreenColumns.of(display) <= LONG_DISPLAY) {
            return Optional.empty();
        }
        List<String> argv = command.displayArgv();
        int arguments = command.arguments().size();
        return Optional.of("  (" + Render.render(argv.subList(0, 1)) + ": " + arguments
                + (arguments == 1 ? " argument, " : " arguments, ") + length + " characters)");
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
