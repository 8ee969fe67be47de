package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The trie that indexes a rule set decides exactly as the linear scan it
 * replaced: the first rule in set order whose program is the command's and
 * whose argument prefix starts the command's arguments, among those that pass
 * the guard test. Seeded: a failure names its seed ({@code -Daii.test.seed=}).
 */
class RuleTriePropertyTest {

    /** Few words, so that rules share prefixes, cover one another and repeat. */
    private static final List<String> WORDS = List.of("status", "log", "-C", "--short", "", "a b", "x", "st", "-");
    private static final List<String> PROGRAMS = List.of("git", "ls", "g");

    private record Case(List<Rule> rules, String program, List<String> arguments, int waivedUpTo) {
    }

    private static List<String> words(SplittableRandom random, int max) {
        return Seeded.listOf(random, 0, max, r -> WORDS.get(r.nextInt(WORDS.size())));
    }

    private static Rule rule(SplittableRandom random) {
        List<String> tokens = new ArrayList<>();
        tokens.add(random.nextInt(5) == 0 ? PROGRAMS.get(random.nextInt(PROGRAMS.size())) : "git");
        tokens.addAll(words(random, 4));
        return new Rule(tokens);
    }

    private static Case draw(SplittableRandom random) {
        List<Rule> rules = Seeded.listOf(random, 0, random.nextBoolean() ? 8 : 60, RuleTriePropertyTest::rule);
        String program = random.nextInt(6) == 0 ? PROGRAMS.get(random.nextInt(PROGRAMS.size())) : "git";
        List<String> arguments = words(random, 6);
        if (!rules.isEmpty() && random.nextBoolean()) {
            // Often a command that some rule covers: that rule's prefix, then more words.
            Rule from = rules.get(random.nextInt(rules.size()));
            program = from.program();
            arguments = new ArrayList<>(from.argumentPrefix());
            arguments.addAll(words(random, 3));
        }
        return new Case(rules, program, arguments, random.nextInt(-1, 5));
    }

    /** The matcher before the trie: every rule of the set in order. */
    private static Optional<Rule> linear(RuleSet set, String program, List<String> arguments, Predicate<Rule> test) {
        for (Rule rule : set.rules()) {
            if (rule.coversArguments(program, arguments) && test.test(rule)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    @Test
    void theFirstCoveringRuleIsTheOneTheLinearScanFinds() {
        Seeded.forAll(5_000, RuleTriePropertyTest::draw, c -> {
            RuleSet set = RuleSet.of(c.rules());
            assertEquals(linear(set, c.program(), c.arguments(), r -> true),
                    set.firstCovering(c.program(), c.arguments()));
        });
    }

    @Test
    void theFirstRuleThatSpellsOutTheGuardedFormsIsTheOneTheLinearScanFinds() {
        Seeded.forAll(5_000, RuleTriePropertyTest::draw, c -> {
            RuleSet set = RuleSet.of(c.rules());
            // A guard hit at argument waivedUpTo (-1: the program itself): a rule waives it when its prefix reaches past it.
            Predicate<Rule> spelledOut = r -> r.argumentPrefix().size() > c.waivedUpTo();
            assertEquals(linear(set, c.program(), c.arguments(), spelledOut),
                    set.firstCovering(c.program(), c.arguments(), spelledOut));
        });
    }

    @Test
    void aSetKnowsExactlyItsRulesAndAddsEachOnce() {
        Seeded.forAll(2_000, RuleTriePropertyTest::draw, c -> {
            RuleSet set = RuleSet.of(c.rules());
            Rule probe = new Rule(concat(c.program(), c.arguments()));
            assertEquals(set.rules().contains(probe), set.contains(probe));
            for (Rule rule : c.rules()) {
                assertEquals(true, set.contains(rule), rule.toString());
                assertSame(set, set.with(rule));
            }
            RuleSet more = set.with(probe);
            assertEquals(true, more.contains(probe));
            assertEquals(set.contains(probe) ? set.rules() : concat(set.rules(), probe), more.rules());
        });
    }

    @Test
    void ofOneHundredThousandRulesOfOneProgramTheLastOneInOrderStillDecides() {
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            rules.add(Rule.of("git", "sub" + i, "--flag"));
        }
        rules.add(Rule.of("git", "status"));
        rules.add(Rule.of("git"));
        RuleSet set = RuleSet.of(rules);

        assertEquals(Optional.of(Rule.of("git", "status")), set.firstCovering("git", List.of("status", "-s")));
        assertEquals(Optional.of(Rule.of("git")), set.firstCovering("git", List.of("sub7")));
        assertEquals(Optional.of(Rule.of("git", "sub7", "--flag")),
                set.firstCovering("git", List.of("sub7", "--flag", "x")));
        assertEquals(Optional.empty(), set.firstCovering("gitk", List.of("status")));
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }

    private static List<Rule> concat(List<Rule> rules, Rule last) {
        List<Rule> all = new ArrayList<>(rules);
        all.add(last);
        return all;
    }
}
