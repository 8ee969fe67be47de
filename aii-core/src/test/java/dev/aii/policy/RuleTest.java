package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleTest {

    @Test
    void aRuleNeedsAProgramName() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> new Rule(List.of()));
        assertEquals("a rule needs at least a program name", none.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> Rule.of("", "x"));
        assertEquals("a rule's program name must not be empty: [, x]", empty.getMessage());
    }

    @Test
    void aRuleKeepsItsOwnCopyOfTheTokens() {
        List<String> tokens = new ArrayList<>(List.of("git", "status"));
        Rule rule = new Rule(tokens);
        tokens.add("--short");
        assertEquals(List.of("git", "status"), rule.tokens());
    }

    @Test
    void programAndArgumentPrefixSplitTheTokens() {
        Rule rule = Rule.of("git", "log", "--oneline");
        assertEquals("git", rule.program());
        assertEquals(List.of("log", "--oneline"), rule.argumentPrefix());
        assertEquals(List.of(), Rule.of("ls").argumentPrefix());
    }

    @Test
    void aRuleIsWrittenAsQuotedTokensJoinedBySpaces() {
        assertEquals("git status", Rule.of("git", "status").toLine());
        assertEquals("ls 'My Documents' '' 'it'\\''s'", Rule.of("ls", "My Documents", "", "it's").toLine());
        assertEquals("ls 'My Documents'", Rule.of("ls", "My Documents").toString());
    }

    @Test
    void rulesWithTheSameTokensAreEqual() throws RuleSyntaxException {
        assertEquals(Rule.of("git", "status"), Rule.parse("'git' \"status\""));
    }

    @Test
    void ruleSetDropsDuplicatesKeepingTheFirst() {
        RuleSet set = RuleSet.of(List.of(Rule.of("b"), Rule.of("a"), Rule.of("b"), Rule.of("a", "x")));
        assertEquals(List.of(Rule.of("b"), Rule.of("a"), Rule.of("a", "x")), set.rules());
    }

    @Test
    void ruleSetWithAddsAtTheEndOnlyWhenNew() {
        RuleSet set = RuleSet.of(List.of(Rule.of("ls")));
        RuleSet more = set.with(Rule.of("git", "status"));
        assertEquals(List.of(Rule.of("ls"), Rule.of("git", "status")), more.rules());
        assertEquals(List.of(Rule.of("ls")), set.rules());
        assertEquals(more, more.with(Rule.of("git", "status")));
        assertEquals(2, more.with(Rule.of("ls")).size());
    }

    @Test
    void builtInDefaultsAreTheSeventeenProgramsInOrder() {
        List<Rule> expected = List.of("ls", "pwd", "cat", "head", "tail", "wc", "date", "whoami", "uname",
                "df", "du", "stat", "file", "which", "ps", "uptime", "sw_vers").stream().map(Rule::of).toList();
        assertEquals(expected, Builtins.DEFAULT_RULES);
        assertEquals(expected, Builtins.defaults().rules());
    }

    @Test
    void trustedDirectoriesAreTheSixSystemDirectories() {
        assertEquals(List.of("/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/opt/homebrew/bin"),
                Builtins.TRUSTED_DIRECTORIES);
    }
}
