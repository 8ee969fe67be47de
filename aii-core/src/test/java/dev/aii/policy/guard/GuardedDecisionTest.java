package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FakeFiles;
import dev.aii.policy.FileProbe;
import dev.aii.policy.ResolvedCommand;
import dev.aii.policy.Rule;
import dev.aii.policy.RuleSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the policy decides for commands that use a guarded argument form. */
class GuardedDecisionTest {

    private static final Environment ENV = new Environment("/usr/bin:/bin", "/home/u",
            FileProbe.executablesOnly(Set.of("/bin/date", "/usr/bin/file", "/home/u/bin/date")::contains));

    private static Decision decide(RuleSet rules, String executable, String... arguments) {
        return ExecPolicy.of(rules, ENV).evaluate(executable, List.of(arguments));
    }

    @Test
    void theDefaultDateRuleNoLongerAllowsSettingTheClock() {
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decide(Builtins.defaults(), "date", "-s", "2020-01-01"));
        assertEquals(Decision.Always.GUARDED, ask.always());
        assertEquals(Optional.empty(), ask.alwaysPrefix());
        assertEquals(List.of(ArgumentGuardsTest.CLOCK), ask.guardReasons());
        assertEquals("date -s 2020-01-01", ask.command().display());
    }

    @Test
    void theThreeHolesAreAskedAbout() {
        assertGuarded(decide(Builtins.defaults(), "date", "0101000020"), ArgumentGuardsTest.CLOCK);
        assertGuarded(decide(Builtins.defaults(), "file", "-C", "-m", "/usr/bin/file"), ArgumentGuardsTest.COMPILE);
        assertGuarded(decide(Builtins.defaults(), "file", "-z", "x"), ArgumentGuardsTest.DECOMPRESS);
    }

    @Test
    void theDefaultsStillAllowTheHarmlessForms() {
        assertEquals(Rule.of("date"), assertInstanceOf(Decision.Allow.class,
                decide(Builtins.defaults(), "date", "-u", "+%s")).rule());
        assertEquals(Rule.of("file"), assertInstanceOf(Decision.Allow.class,
                decide(Builtins.defaults(), "/usr/bin/file", "-b", "x")).rule());
    }

    @Test
    void aHandWrittenRuleThatSpellsOutTheFormAllowsIt() {
        RuleSet rules = FakeFiles.rules("date", "date -s");
        assertEquals(Rule.of("date", "-s"), assertInstanceOf(Decision.Allow.class,
                decide(rules, "date", "-s", "2020-01-01")).rule());
        assertEquals(Rule.of("date", "-s"), assertInstanceOf(Decision.Allow.class,
                decide(rules, "/bin/date", "-s", "tomorrow", "-u")).rule());
        assertEquals(Rule.of("date"), assertInstanceOf(Decision.Allow.class, decide(rules, "date")).rule());
    }

    @Test
    void aRuleSpellingOutOneGuardDoesNotCoverAnother() {
        RuleSet rules = FakeFiles.rules("file -C");
        assertEquals(Rule.of("file", "-C"), assertInstanceOf(Decision.Allow.class,
                decide(rules, "file", "-C", "-m", "/usr/bin/file")).rule());
        // The prompt then names every guarded form the command uses.
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decide(rules, "file", "-C", "-z", "-m", "/usr/bin/file"));
        assertEquals(Decision.Always.GUARDED, ask.always());
        assertEquals(List.of(ArgumentGuardsTest.COMPILE, ArgumentGuardsTest.DECOMPRESS), ask.guardReasons());
    }

    @Test
    void aGuardedCommandThatNoRuleCoversIsAskedWithoutAlways() {
        assertGuarded(decide(RuleSet.empty(), "date", "--set=2020-01-01"), ArgumentGuardsTest.CLOCK);
    }

    @Test
    void everyReasonIsGivenWhenSeveralFormsAreUsed() {
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decide(Builtins.defaults(), "file", "-Cz", "x"));
        assertEquals(List.of(ArgumentGuardsTest.COMPILE, ArgumentGuardsTest.DECOMPRESS), ask.guardReasons());
    }

    @Test
    void aProgramOutsideSystemDirectoriesIsAskedAboutForThatReasonAlone() {
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decide(Builtins.defaults(), "bin/date", "-s", "x"));
        assertEquals(Decision.Always.NOT_IN_SYSTEM_DIRECTORY, ask.always());
        assertEquals(List.of(), ask.guardReasons());
    }

    @Test
    void guardReasonsGoWithGuardedAndOnlyWithIt() {
        ResolvedCommand command = new ResolvedCommand("date", "/bin/date", "date", true, List.of());
        assertThrows(IllegalArgumentException.class,
                () -> new Decision.Ask(command, Rule.of("date"), Decision.Always.GUARDED));
        assertThrows(IllegalArgumentException.class,
                () -> new Decision.Ask(command, Rule.of("date"), Decision.Always.OFFERED, List.of("x")));
    }

    private static void assertGuarded(Decision decision, String reason) {
        Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision);
        assertEquals(Decision.Always.GUARDED, ask.always());
        assertEquals(List.of(reason), ask.guardReasons());
    }
}
