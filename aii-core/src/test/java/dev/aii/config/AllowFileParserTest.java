package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.aii.policy.Rule;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AllowFileParserTest {

    static Stream<Arguments> files() {
        return Stream.of(
                argumentSet("empty text", "", List.of(), List.of()),
                argumentSet("only a line feed", "\n", List.of(), List.of()),
                argumentSet("one rule without a final line feed", "git status", List.of(Rule.of("git", "status")), List.of()),
                argumentSet("comments and blank lines", "# a comment\n\n   \n\t# indented comment\nls\n",
                        List.of(Rule.of("ls")), List.of()),
                argumentSet("a hash after a token is not a comment", "echo #x\n", List.of(Rule.of("echo", "#x")), List.of()),
                argumentSet("an escaped hash starts a rule", "\\#x\n", List.of(Rule.of("#x")), List.of()),
                argumentSet("CRLF line ends", "ls\r\ngit log\r\n", List.of(Rule.of("ls"), Rule.of("git", "log")), List.of()),
                argumentSet("lines trimmed of spaces, tabs and CR", " \t ls -l \t\r\n",
                        List.of(Rule.of("ls", "-l")), List.of()),
                argumentSet("quotes and escapes", "ls 'My Documents' \"a \\\"b\\\"\" c\\ d\n",
                        List.of(Rule.of("ls", "My Documents", "a \"b\"", "c d")), List.of()),
                argumentSet("duplicates dropped, first kept",
                        "git status\nls\n'git' \"status\"\nls\n",
                        List.of(Rule.of("git", "status"), Rule.of("ls")), List.of()),
                argumentSet("malformed lines numbered from 1, counting comments and blanks",
                        "# header\nls\n\ngit 'status\necho \"x\n'' ls\nrm x\\\ncat\n",
                        List.of(Rule.of("ls"), Rule.of("cat")), List.of(4, 5, 6, 7)),
                argumentSet("trimming comes first, so an escaped final space is a trailing backslash",
                        "ls a\\ \n", List.of(), List.of(1)),
                argumentSet("a malformed last line without a line feed", "ls\n\"", List.of(Rule.of("ls")), List.of(2)),
                argumentSet("a byte order mark before a comment is ignored", "\uFEFF# seeded\nls\n",
                        List.of(Rule.of("ls")), List.of()),
                argumentSet("a byte order mark before a rule is ignored", "\uFEFFgit status\r\n",
                        List.of(Rule.of("git", "status")), List.of()),
                argumentSet("a byte order mark elsewhere is part of the token", "ls\n\uFEFFcat\n",
                        List.of(Rule.of("ls"), Rule.of("\uFEFFcat")), List.of()));
    }

    @ParameterizedTest
    @MethodSource("files")
    void parseKeepsRulesInOrderAndNumbersMalformedLines(String text, List<Rule> rules, List<Integer> malformed) {
        AllowFileParser.Parsed parsed = AllowFileParser.parse(text);
        assertEquals(rules, parsed.rules());
        assertEquals(malformed, parsed.malformedLines());
    }
}
