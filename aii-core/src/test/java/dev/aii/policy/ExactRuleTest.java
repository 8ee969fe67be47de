package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Exact rules: what "always" stores for a program without a guard table,
 * written {@code = } and the command's tokens, allowing that argv and
 * nothing added to it.
 */
class ExactRuleTest {

    private static final Rule SHUF = Rule.exactly(List.of("shuf", "data.txt"));

    @Test
    void anExactRuleIsWrittenAsEqualsThenTheCommandsTokensQuoted() throws RuleSyntaxException {
        assertEquals("= shuf data.txt", SHUF.toLine());
        assertEquals("= printf '%s\\n' 'it'\\''s'", Rule.exactly(List.of("printf", "%s\\n", "it's")).toLine());
        assertEquals(SHUF, Rule.parse("= shuf data.txt"));
        assertEquals(SHUF, Rule.parse("  =\tshuf 'data.txt'  "));
        assertEquals(List.of("=", "shuf", "data.txt"), SHUF.lineTokens());
        assertEquals(List.of("shuf", "data.txt"), SHUF.tokens());
        assertTrue(SHUF.exact());
    }

    @Test
    void aRuleWithoutTheMarkIsAPrefixRuleAsBefore() throws RuleSyntaxException {
        Rule prefix = Rule.parse("shuf data.txt");
        assertFalse(prefix.exact());
        assertEquals(Rule.of("shuf", "data.txt"), prefix);
        assertFalse(prefix.equals(SHUF));
        assertEquals("shuf data.txt", prefix.toLine());
    }

    @Test
    void theMarkAloneOrBeforeAnEmptyProgramIsMalformed() {
        assertThrows(RuleSyntaxException.class, () -> Rule.parse("="));
        assertThrows(RuleSyntaxException.class, () -> Rule.parse("= ''"));
        assertThrows(IllegalArgumentException.class, () -> Rule.of("=", "x"));
    }

    @Test
    void anExactRuleCoversOnlyItsOwnArgv() {
        ExecPolicy policy = FakeFiles.policy(RuleSet.of(List.of(Rule.exactly(List.of("ls", "-l")))));
        assertInstanceOf(Decision.Allow.class, policy.evaluate("ls", List.of("-l")));
        assertInstanceOf(Decision.Ask.class, policy.evaluate("ls", List.of("-l", "/tmp")));
        assertInstanceOf(Decision.Ask.class, policy.evaluate("ls", List.of()));
        assertInstanceOf(Decision.Ask.class, policy.evaluate("ls", List.of("-la")));
    }

    @Test
    void aSetHoldsTheExactAndThePrefixRuleOfTheSameTokensApartAndKeepsTheirOrder() {
        Rule prefix = Rule.of("ls", "-l");
        Rule exact = Rule.exactly(List.of("ls", "-l"));
        RuleSet set = RuleSet.of(List.of(exact, prefix));
        assertEquals(2, set.size());
        assertTrue(set.contains(prefix) && set.contains(exact));
        assertEquals(Optional.of(exact), set.firstCovering("ls", List.of("-l")));
        assertEquals(Optional.of(prefix), set.firstCovering("ls", List.of("-l", "x")));
        assertEquals(Optional.of(prefix), RuleSet.of(List.of(prefix, exact)).firstCovering("ls", List.of("-l")));
        assertEquals(Optional.empty(), RuleSet.of(List.of(exact)).firstCovering("ls", List.of("-l", "x")));
        assertFalse(RuleSet.of(List.of(prefix)).contains(exact));
    }

    @Test
    void alwaysStoresTheExactCommandForAProgramWithoutATable() {
        Environment env = new Environment("/usr/bin", "/home/u",
                FileProbe.executablesOnly(p -> p.startsWith("/usr/bin/")));
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class,
                ExecPolicy.of(Builtins.defaults(), env).evaluate("shuf", List.of("data.txt")));
        assertEquals(Optional.of(SHUF), ask.alwaysPrefix());
        Decision.Ask perf = assertInstanceOf(Decision.Ask.class,
                ExecPolicy.of(Builtins.defaults(), env).evaluate("gcc", List.of("main.c")));
        assertEquals(Optional.of(Rule.exactly(List.of("gcc", "main.c"))), perf.alwaysPrefix());
        // What was stored allows that command and no other.
        ExecPolicy after = ExecPolicy.of(Builtins.defaults(), env).withRule(ask.prefix());
        assertInstanceOf(Decision.Allow.class, after.evaluate("shuf", List.of("data.txt")));
        assertInstanceOf(Decision.Ask.class, after.evaluate("shuf", List.of("data.txt", "-o", "/home/u/.bashrc")));
    }

    @Test
    void alwaysStoresThePrefixForAProgramWithATable() {
        Environment env = new Environment("/usr/bin", "/home/u",
                FileProbe.executablesOnly(p -> p.startsWith("/usr/bin/")));
        ExecPolicy policy = ExecPolicy.of(RuleSet.empty(), env);
        assertEquals(Optional.of(Rule.of("git", "status")),
                assertInstanceOf(Decision.Ask.class, policy.evaluate("git", List.of("status", "-s"))).alwaysPrefix());
        assertEquals(Optional.of(Rule.of("sort", "-r", "x")),
                assertInstanceOf(Decision.Ask.class, policy.evaluate("sort", List.of("-r", "x"))).alwaysPrefix());
        assertEquals(Rule.of("sort", "x"), ExecPolicy.alwaysRule("sort", List.of("x", "-r")));
        assertEquals(Rule.exactly(List.of("shuf", "x", "-r")), ExecPolicy.alwaysRule("shuf", List.of("x", "-r")));
    }

    @Test
    void aHandWrittenPrefixRuleForAProgramWithoutATableIsHonoured() {
        ExecPolicy policy = FakeFiles.policy(FakeFiles.rules("touch"));
        assertInstanceOf(Decision.Allow.class, policy.evaluate("touch", List.of("a", "b")));
    }
}
