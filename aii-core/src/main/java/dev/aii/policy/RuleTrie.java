package dev.aii.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rules of one program as a trie over their argument tokens: the rules
 * that cover a command are exactly those on the path its arguments spell from
 * the root, so finding the first of them costs one lookup per argument,
 * however many rules the program has.
 *
 * <p>Each node holds at most one prefix rule and one exact rule (a rule set
 * has no duplicates) and their positions in the set, so that "first" keeps
 * the set's order. An exact rule counts only at the node its whole argument
 * list leads to.
 */
final class RuleTrie {

    private static final class Node {
        private Rule rule;
        private int order = -1;
        private Rule exactRule;
        private int exactOrder = -1;
        // Most nodes have one child: it is kept without a map until a second one comes.
        private String onlyToken;
        private Node onlyChild;
        private Map<String, Node> children;

        Node child(String token) {
            if (children != null) {
                return children.get(token);
            }
            return token.equals(onlyToken) ? onlyChild : null;
        }

        Node childOrNew(String token) {
            Node existing = child(token);
            if (existing != null) {
                return existing;
            }
            Node made = new Node();
            if (children == null && onlyToken == null) {
                onlyToken = token;
                onlyChild = made;
            } else {
                if (children == null) {
                    children = new HashMap<>();
                    children.put(onlyToken, onlyChild);
                    onlyToken = null;
                    onlyChild = null;
                }
                children.put(token, made);
            }
            return made;
        }
    }

    private final Node root = new Node();

    /**
     * Adds {@code rule} at position {@code order} of the set; a rule already
     * here keeps its place (the first of equal rules is kept).
     */
    void add(Rule rule, int order) {
        Node node = root;
        List<String> tokens = rule.tokens();
        for (int i = 1; i < tokens.size(); i++) {
            node = node.childOrNew(tokens.get(i));
        }
        if (rule.exact()) {
            if (node.exactRule == null) {
                node.exactRule = rule;
                node.exactOrder = order;
            }
        } else if (node.rule == null) {
            node.rule = rule;
            node.order = order;
        }
    }

    /** Whether {@code rule} (of this trie's program) is here. */
    boolean contains(Rule rule) {
        Node node = root;
        List<String> tokens = rule.tokens();
        for (int i = 1; i < tokens.size() && node != null; i++) {
            node = node.child(tokens.get(i));
        }
        return node != null && (rule.exact() ? node.exactRule != null : node.rule != null);
    }

    /**
     * The rule that comes first in the set among those whose argument prefix
     * starts {@code arguments} and that pass {@code test}, or null.
     * {@code test} must be free of side effects: it is asked only about
     * rules that would come before the best one found so far.
     */
    Rule first(List<String> arguments, Predicate<Rule> test) {
        Rule best = null;
        int bestOrder = Integer.MAX_VALUE;
        Node node = root;
        int i = 0;
        while (true) {
            if (node.rule != null && node.order < bestOrder && test.test(node.rule)) {
                best = node.rule;
                bestOrder = node.order;
            }
            if (i == arguments.size()) {
                if (node.exactRule != null && node.exactOrder < bestOrder && test.test(node.exactRule)) {
                    best = node.exactRule;
                }
                break;
            }
            node = node.child(arguments.get(i++));
            if (node == null) {
                break;
            }
        }
        return best;
    }
}
