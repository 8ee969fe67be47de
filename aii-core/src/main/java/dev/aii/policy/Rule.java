package dev.aii.policy;

import java.util.List;

/**
 * An argv prefix, or an exact command: the program name, then zero or more
 * arguments.
 *
 * <p>A prefix rule allows a command whose program name equals the first
 * token, whose resolved path lies in a trusted directory, and whose arguments
 * start with the remaining tokens. An exact rule allows only the command
 * whose arguments are exactly the remaining tokens; the allow file writes it
 * as the token {@code =} followed by its tokens ({@code = shuf data.txt}).
 *
 * @param tokens the program name followed by the arguments; never empty, and
 *               the program name is never empty (nor {@code =} for a prefix
 *               rule, since that line would read back as an exact rule)
 * @param exact whether the rule allows exactly these arguments and nothing added
 */
public record Rule(List<String> tokens, boolean exact) {

    /** The token that starts an exact rule's line in the allow file. */
    public static final String EXACT_MARK = "=";

    public Rule {
        if (tokens == null || tokens.isEmpty()) {
            throw new IllegalArgumentException("a rule needs at least a program name");
        }
        tokens = List.copyOf(tokens);
        if (tokens.get(0).isEmpty()) {
            throw new IllegalArgumentException("a rule's program name must not be empty: " + tokens);
        }
        if (!exact && tokens.get(0).equals(EXACT_MARK)) {
            throw new IllegalArgumentException("a prefix rule's program name must not be " + EXACT_MARK
                    + ", which starts an exact rule: " + tokens);
        }
    }

    /** A prefix rule. */
    public Rule(List<String> tokens) {
        this(tokens, false);
    }

    /** Convenience for {@code new Rule(List.of(tokens))}. */
    public static Rule of(String... tokens) {
        return new Rule(List.of(tokens));
    }

    /** The exact rule for the command {@code tokens} (program, then arguments). */
    public static Rule exactly(List<String> tokens) {
        return new Rule(tokens, true);
    }

    /**
     * Parses one rule written the way the allow file writes it: whitespace
     * separated tokens with POSIX-style quoting.
     *
     * @throws RuleSyntaxException when the text is not a rule, with the column
     */
    public static Rule parse(String line) throws RuleSyntaxException {
        return RuleTokenizer.parse(line);
    }

    /** The program name, the first token. */
    public String program() {
        return tokens.get(0);
    }

    /** The argument prefix (for an exact rule, the arguments): every token after the program name. */
    public List<String> argumentPrefix() {
        return tokens.subList(1, tokens.size());
    }

    /** Whether this rule covers {@code programName} with {@code arguments}: a prefix of them, or exactly them. */
    boolean coversArguments(String programName, List<String> arguments) {
        if (!program().equals(programName)) {
            return false;
        }
        List<String> prefix = argumentPrefix();
        if (exact) {
            return prefix.equals(arguments);
        }
        return prefix.size() <= arguments.size() && prefix.equals(arguments.subList(0, prefix.size()));
    }

    /** The tokens of the rule's line in the allow file: {@link #EXACT_MARK} first for an exact rule. */
    public List<String> lineTokens() {
        if (!exact) {
            return tokens;
        }
        List<String> line = new java.util.ArrayList<>(tokens.size() + 1);
        line.add(EXACT_MARK);
        line.addAll(tokens);
        return List.copyOf(line);
    }

    /** The rule as one line of the allow file: its line tokens quoted, joined by spaces. */
    public String toLine() {
        return Render.quoteJoin(lineTokens());
    }

    // start-up idiom: equals and hashCode written out (DEVELOPERS.md); equal tokens and kind, equal rules.
    @Override
    public boolean equals(Object o) {
        return o instanceof Rule other && exact == other.exact && tokens.equals(other.tokens);
    }

    @Override
    public int hashCode() {
        return tokens.hashCode() * 2 + (exact ? 1 : 0);
    }

    @Override
    public String toString() {
        return toLine();
    }
}
