package dev.aii.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * An ordered set of rules without duplicates (the first of equal rules is
 * kept). Immutable: {@link #with} makes a new set.
 */
public final class RuleSet {

    private static final RuleSet EMPTY = new RuleSet(List.of());

    private final List<Rule> rules;
    /** The rules of each program name, in set order: a decision looks only at its program's rules. */
    private final Map<String, List<Rule>> byProgram;

    private RuleSet(List<Rule> rules) {
        this.rules = rules;
        Map<String, List<Rule>> index = new HashMap<>();
        for (Rule rule : rules) {
            List<Rule> same = index.get(rule.program());
            if (same == null) {
                same = new ArrayList<>(1);
                index.put(rule.program(), same);
            }
            same.add(rule);
        }
        this.byProgram = index;
    }

    /** The rules in order, duplicates dropped. */
    public static RuleSet of(Collection<Rule> rules) {
        return new RuleSet(List.copyOf(new LinkedHashSet<>(rules)));
    }

    /** A set that allows nothing. */
    public static RuleSet empty() {
        return EMPTY;
    }

    /** The rules, in order. */
    public List<Rule> rules() {
        return rules;
    }

    public boolean contains(Rule rule) {
        return rules.contains(rule);
    }

    public int size() {
        return rules.size();
    }

    /** This set plus {@code rule} at the end, or this set when it already holds it. */
    public RuleSet with(Rule rule) {
        if (rules.contains(rule)) {
            return this;
        }
        List<Rule> more = new ArrayList<>(rules.size() + 1);
        more.addAll(rules);
        more.add(rule);
        return new RuleSet(List.copyOf(more));
    }

    /**
     * The first rule that covers {@code programName} with {@code arguments}.
     * Trust of the program's directory is the caller's concern.
     */
    Optional<Rule> firstCovering(String programName, List<String> arguments) {
        return firstCovering(programName, arguments, rule -> true);
    }

    /** The first rule that covers the command and also passes {@code test}. */
    Optional<Rule> firstCovering(String programName, List<String> arguments, Predicate<Rule> test) {
        List<Rule> candidates = byProgram.get(programName);
        if (candidates == null) {
            return Optional.empty();
        }
        for (Rule rule : candidates) {
            if (rule.coversArguments(programName, arguments) && test.test(rule)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuleSet other && rules.equals(other.rules);
    }

    @Override
    public int hashCode() {
        return rules.hashCode();
    }

    @Override
    public String toString() {
        return rules.toString();
    }
}
