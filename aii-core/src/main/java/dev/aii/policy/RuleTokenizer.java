package dev.aii.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of the allow file into tokens: separators are space, tab
 * and CR; {@code '...'} is literal; inside {@code "..."} a backslash escapes
 * only {@code " \ $ `} (before anything else both characters are kept);
 * outside quotes a backslash escapes the next character; adjacent parts join.
 * There is no expansion of any kind.
 */
final class RuleTokenizer {

    private RuleTokenizer() {
    }

    /** A rule: a prefix rule, or, when the first token is {@code =}, the exact rule of the tokens after it. */
    static Rule parse(String line) throws RuleSyntaxException {
        List<String> tokens = tokenize(line);
        boolean exact = !tokens.isEmpty() && tokens.get(0).equals(Rule.EXACT_MARK);
        List<String> command = exact ? tokens.subList(1, tokens.size()) : tokens;
        if (command.isEmpty() || command.get(0).isEmpty()) {
            throw new RuleSyntaxException(RuleSyntaxException.Kind.EMPTY_PROGRAM, firstNonSeparator(line) + 1);
        }
        return new Rule(command, exact);
    }

    static List<String> tokenize(String line) throws RuleSyntaxException {
        List<String> tokens = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inToken = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (isSeparator(c)) {
                if (inToken) {
                    tokens.add(current.toString());
                    current.setLength(0);
                    inToken = false;
                }
                i++;
            } else if (c == '\'') {
                int close = line.indexOf('\'', i + 1);
                if (close < 0) {
                    throw new RuleSyntaxException(RuleSyntaxException.Kind.UNTERMINATED_QUOTE, i + 1);
                }
                current.append(line, i + 1, close);
                inToken = true;
                i = close + 1;
            } else if (c == '"') {
                i = doubleQuoted(line, i, current);
                inToken = true;
            } else if (c == '\\') {
                if (i + 1 >= n) {
                    throw new RuleSyntaxException(RuleSyntaxException.Kind.TRAILING_BACKSLASH, i + 1);
                }
                current.append(line.charAt(i + 1));
                inToken = true;
                i += 2;
            } else {
                current.append(c);
                inToken = true;
                i++;
            }
        }
        if (inToken) {
            tokens.add(current.toString());
        }
        return tokens;
    }

    /** Appends the content of the double-quoted part opening at {@code open}; returns the index after it. */
    private static int doubleQuoted(String line, int open, StringBuilder out) throws RuleSyntaxException {
        int i = open + 1;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < n && isDoubleQuoteEscapable(line.charAt(i + 1))) {
                out.append(line.charAt(i + 1));
                i += 2;
            } else {
                out.append(c);
                i++;
            }
        }
        throw new RuleSyntaxException(RuleSyntaxException.Kind.UNTERMINATED_QUOTE, open + 1);
    }

    private static boolean isDoubleQuoteEscapable(char c) {
        return c == '"' || c == '\\' || c == '$' || c == '`';
    }

    static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }

    private static int firstNonSeparator(String line) {
        int i = 0;
        while (i < line.length() && isSeparator(line.charAt(i))) {
            i++;
        }
        return i;
    }
}
