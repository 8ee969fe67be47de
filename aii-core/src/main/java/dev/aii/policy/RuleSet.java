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

    private static final Predicate<Rule> ANY = rule -> true;

    private final List<Rule> rules;
    /**
     * The rules of each program name as a trie over their tokens: a decision
     * looks only at the rules on its own arguments' path, one lookup per
     * argument, however many rules there are.
     */
    private final Map<String, RuleTrie> byProgram;

    private RuleSet(List<Rule> rules) {
        this.rules = rules;
        Map<String, RuleTrie> index = new HashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            RuleTrie same = index.get(rule.program());
            if (same == null) {
                same = new RuleTrie();
                index.put(rule.program(), same);
            }
            same.add(rule, i);
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
        RuleTrie same = byProgram.get(rule.program());
        return same != null && same.contains(rule);
    }

    public int size() {
        return rules.size();
    }

    /** This set plus {@code rule} at the end, or this set when it already holds it. */
    public RuleSet with(Rule rule) {
        if (contains(rule)) {
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
        return firstCovering(programName, arguments, ANY);
    }

    /** The first rule that covers the command and also passes {@code test}. */
    Optional<Rule> firstCovering(String programName, List<String> arguments, Predicate<Rule> test) {
        RuleTrie candidates = byProgram.get(programName);
        return candidates == null ? Optional.empty() : Optional.ofNullable(candidates.first(arguments, test));
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
