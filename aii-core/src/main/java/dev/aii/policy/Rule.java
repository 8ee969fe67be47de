package dev.aii.policy;

import java.util.List;

/**
 * An argv prefix: the program name, then zero or more leading arguments.
 *
 * <p>A rule allows a command whose program name equals the first token, whose
 * resolved path lies in a trusted directory, and whose arguments start with
 * the remaining tokens.
 *
 * @param tokens the program name followed by the argument prefix; never empty,
 *               and the program name is never empty
 */
public record Rule(List<String> tokens) {

    public Rule {
        if (tokens == null || tokens.isEmpty()) {
            throw new IllegalArgumentException("a rule needs at least a program name");
        }
        tokens = List.copyOf(tokens);
        if (tokens.get(0).isEmpty()) {
            throw new IllegalArgumentException("a rule's program name must not be empty: " + tokens);
        }
    }

    /** Convenience for {@code new Rule(List.of(tokens))}. */
    public static Rule of(String... tokens) {
        return new Rule(List.of(tokens));
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

    /** The argument prefix, every token after the program name. */
    public List<String> argumentPrefix() {
        return tokens.subList(1, tokens.size());
    }

    /** Whether this rule's tokens are the program name and a prefix of {@code arguments}. */
    boolean coversArguments(String programName, List<String> arguments) {
        if (!program().equals(programName)) {
            return false;
        }
        List<String> prefix = argumentPrefix();
        return prefix.size() <= arguments.size() && prefix.equals(arguments.subList(0, prefix.size()));
    }

    /** The rule as one line of the allow file: tokens quoted, joined by spaces. */
    public String toLine() {
        return Render.quoteJoin(tokens);
    }

    // start-up idiom: equals and hashCode written out (DEVELOPERS.md); equal tokens, equal rules.
    @Override
    public boolean equals(Object o) {
        return o instanceof Rule other && tokens.equals(other.tokens);
    }

    @Override
    public int hashCode() {
        return tokens.hashCode();
    }

    @Override
    public String toString() {
        return toLine();
    }
}
