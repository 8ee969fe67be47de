package dev.aii.policy;

/**
 * Text that is not a rule, with where and why. Only the rule tokenizer creates
 * these.
 */
public final class RuleSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why a line is not a rule. */
    public enum Kind {
        /** A single or double quote is opened and never closed. */
        UNTERMINATED_QUOTE("unterminated quote"),
        /** The line ends with a backslash that escapes nothing. */
        TRAILING_BACKSLASH("trailing backslash"),
        /** The first token, the program name, is empty (for example {@code ''}). */
        EMPTY_PROGRAM("empty program name");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        /** A few words for humans. */
        public String description() {
            return description;
        }
    }

    private final Kind kind;
    private final int column;

    RuleSyntaxException(Kind kind, int column) {
        super(kind.description() + " at column " + column);
        this.kind = kind;
        this.column = column;
    }

    /** Why the text is not a rule. */
    public Kind kind() {
        return kind;
    }

    /** The 1-based column (in UTF-16 units of the line) where the problem starts. */
    public int column() {
        return column;
    }
}
