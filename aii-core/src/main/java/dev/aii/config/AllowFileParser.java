package dev.aii.config;

import dev.aii.policy.Rule;
import dev.aii.policy.RuleSyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads the text of an allow file into rules, noting the lines that are not rules. */
final class AllowFileParser {

    /** The rules in order without duplicates, and the 1-based numbers of malformed lines. */
    record Parsed(List<Rule> rules, List<Integer> malformedLines) {
    }

    private AllowFileParser() {
    }

    static Parsed parse(String text) {
        Set<Rule> rules = new LinkedHashSet<>();
        List<Integer> malformed = new ArrayList<>();
        // An editor's byte order mark would otherwise glue itself to the first rule or comment.
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        String[] lines = body.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = trim(lines[i]);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                rules.add(Rule.parse(line));
            } catch (RuleSyntaxException e) {
                malformed.add(i + 1);
            }
        }
        return new Parsed(List.copyOf(rules), List.copyOf(malformed));
    }

    /** Strips the token separators (space, tab, CR) from both ends. */
    static String trim(String line) {
        int start = 0;
        int end = line.length();
        while (start < end && isBlank(line.charAt(start))) {
            start++;
        }
        while (end > start && isBlank(line.charAt(end - 1))) {
            end--;
        }
        return line.substring(start, end);
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }
}
