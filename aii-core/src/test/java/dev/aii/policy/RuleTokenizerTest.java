package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuleTokenizerTest {

    static Stream<Arguments> rules() {
        return Stream.of(
                argumentSet("program alone", "ls", List.of("ls")),
                argumentSet("program and subcommand", "git status", List.of("git", "status")),
                argumentSet("runs of spaces, tabs and CR separate", "git \t status\r\t--short",
                        List.of("git", "status", "--short")),
                argumentSet("separators at both ends", " \tls -l\r", List.of("ls", "-l")),
                argumentSet("single quotes keep spaces", "ls 'My Documents'", List.of("ls", "My Documents")),
                argumentSet("single quotes keep backslashes and double quotes", "echo 'a\\n\"b\"'",
                        List.of("echo", "a\\n\"b\"")),
                argumentSet("single quotes keep $ and `", "echo '$HOME `x`'", List.of("echo", "$HOME `x`")),
                argumentSet("double quotes keep spaces", "ls \"a b\"", List.of("ls", "a b")),
                argumentSet("in double quotes a backslash escapes \"", "echo \"say \\\"hi\\\"\"",
                        List.of("echo", "say \"hi\"")),
                argumentSet("in double quotes a backslash escapes \\ $ and `", "echo \"\\\\ \\$ \\`\"",
                        List.of("echo", "\\ $ `")),
                argumentSet("in double quotes a backslash before anything else is kept with it",
                        "echo \"\\n\\a\\'\"", List.of("echo", "\\n\\a\\'")),
                argumentSet("single quote inside double quotes", "echo \"it's\"", List.of("echo", "it's")),
                argumentSet("double quote inside single quotes", "echo '\"'", List.of("echo", "\"")),
                argumentSet("backslash outside quotes escapes a space", "ls a\\ b", List.of("ls", "a b")),
                argumentSet("backslash outside quotes escapes a quote", "echo \\'x", List.of("echo", "'x")),
                argumentSet("backslash outside quotes escapes a letter", "echo \\n", List.of("echo", "n")),
                argumentSet("backslash outside quotes escapes a backslash", "echo \\\\", List.of("echo", "\\")),
                argumentSet("adjacent parts join", "echo a'b c'\"d e\"f\\ g", List.of("echo", "ab cd ef g")),
                argumentSet("quoted program name", "'my tool' x", List.of("my tool", "x")),
                argumentSet("empty quotes are an empty argument", "touch '' \"\"", List.of("touch", "", "")),
                argumentSet("the written form of a quote", "echo 'it'\\''s'", List.of("echo", "it's")),
                argumentSet("no tilde expansion", "ls ~", List.of("ls", "~")),
                argumentSet("no variable expansion", "echo $HOME \"$HOME\"", List.of("echo", "$HOME", "$HOME")),
                argumentSet("no globbing", "ls *.txt", List.of("ls", "*.txt")),
                argumentSet("a hash inside a line is a token", "echo # not a comment",
                        List.of("echo", "#", "not", "a", "comment")),
                argumentSet("other whitespace is not a separator", "echo a\u000Bb\u00A0c",
                        List.of("echo", "a\u000Bb\u00A0c")),
                argumentSet("non-ASCII", "cat 日本.txt café", List.of("cat", "日本.txt", "café")));
    }

    @ParameterizedTest
    @MethodSource("rules")
    void parseSplitsALineIntoTokens(String line, List<String> tokens) throws RuleSyntaxException {
        assertEquals(tokens, Rule.parse(line).tokens());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                argumentSet("unterminated single quote", "git 'status",
                        RuleSyntaxException.Kind.UNTERMINATED_QUOTE, 5),
                argumentSet("unterminated double quote", "echo \"abc",
                        RuleSyntaxException.Kind.UNTERMINATED_QUOTE, 6),
                argumentSet("escaped closing double quote", "echo \"abc\\\"",
                        RuleSyntaxException.Kind.UNTERMINATED_QUOTE, 6),
                argumentSet("backslash does not escape a single quote inside single quotes", "echo 'a\\'b'",
                        RuleSyntaxException.Kind.UNTERMINATED_QUOTE, 11),
                argumentSet("lone quote at the start", "'", RuleSyntaxException.Kind.UNTERMINATED_QUOTE, 1),
                argumentSet("trailing backslash", "rm x\\", RuleSyntaxException.Kind.TRAILING_BACKSLASH, 5),
                argumentSet("only a backslash", "\\", RuleSyntaxException.Kind.TRAILING_BACKSLASH, 1),
                argumentSet("empty single-quoted program", "'' ls", RuleSyntaxException.Kind.EMPTY_PROGRAM, 1),
                argumentSet("empty double-quoted program", "  \"\" x", RuleSyntaxException.Kind.EMPTY_PROGRAM, 3),
                argumentSet("nothing at all", "", RuleSyntaxException.Kind.EMPTY_PROGRAM, 1),
                argumentSet("separators only", " \t", RuleSyntaxException.Kind.EMPTY_PROGRAM, 3));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void parseRejectsMalformedLinesWithKindAndColumn(String line, RuleSyntaxException.Kind kind, int column) {
        RuleSyntaxException e = assertThrows(RuleSyntaxException.class, () -> Rule.parse(line));
        assertEquals(kind, e.kind());
        assertEquals(column, e.column());
        assertEquals(kind.description() + " at column " + column, e.getMessage());
    }
}
