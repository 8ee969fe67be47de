package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Rule;
import dev.aii.policy.Seeded;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AllowFilePropertiesTest {

    /** Quoting syntax, blanks, non-ASCII, C0 controls but no line feed, and printable ASCII. */
    private static final String TOKEN_CHARS = " \t\r'\"\\$`#~;é日\u0085\u202E"
            + IntStream.rangeClosed('!', '~').mapToObj(Character::toString).collect(Collectors.joining())
            + IntStream.rangeClosed(0, 0x1F).filter(c -> c != '\n').mapToObj(Character::toString)
                    .collect(Collectors.joining());

    /**
     * Up to 8 rules of 1 to 4 tokens (up to 8 characters each), the first
     * token never empty, prefix rules and exact rules (a prefix rule's
     * program is never {@code =}, which starts an exact one).
     */
    static List<Rule> rules(SplittableRandom random) {
        return Seeded.listOf(random, 0, 8, r -> {
            boolean exact = r.nextInt(3) == 0;
            return new Rule(Seeded.where(r,
                    rr -> Seeded.listOf(rr, 1, 4, t -> t.nextInt(6) == 0 ? "=" : Seeded.stringOf(t, TOKEN_CHARS, 8)),
                    tokens -> !tokens.get(0).isEmpty() && (exact || !tokens.get(0).equals("="))), exact);
        });
    }

    @Test
    void aFileOfWrittenRulesReadsBackAsThoseRules() {
        Seeded.forAll(1000, AllowFilePropertiesTest::rules, rules -> {
            String text = rules.stream().map(r -> r.toLine() + "\n").collect(Collectors.joining());
            AllowFileParser.Parsed parsed = AllowFileParser.parse(AllowFile.SEED_HEADER + "\n" + text);
            assertEquals(List.copyOf(new LinkedHashSet<>(rules)), parsed.rules());
            assertEquals(List.of(), parsed.malformedLines());
        });
    }
}
