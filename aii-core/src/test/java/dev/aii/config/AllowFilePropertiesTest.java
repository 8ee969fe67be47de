package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.aii.policy.Rule;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class AllowFilePropertiesTest {

    @Provide
    Arbitrary<List<Rule>> rules() {
        Arbitrary<String> token = Arbitraries.strings()
                .withChars(" \t\r'\"\\$`#~;é日\u0085\u202E")
                .withCharRange('!', '~')
                .withCharRange('\u0000', '\u001F')
                .excludeChars('\n')
                .ofMaxLength(8);
        Arbitrary<Rule> rule = token.list().ofMinSize(1).ofMaxSize(4)
                .filter(tokens -> !tokens.getFirst().isEmpty())
                .map(Rule::new);
        return rule.list().ofMaxSize(8);
    }

    @Property
    void aFileOfWrittenRulesReadsBackAsThoseRules(@ForAll("rules") List<Rule> rules) {
        String text = rules.stream().map(r -> r.toLine() + "\n").collect(Collectors.joining());
        AllowFileParser.Parsed parsed = AllowFileParser.parse(AllowFile.SEED_HEADER + "\n" + text);
        assertEquals(List.copyOf(new LinkedHashSet<>(rules)), parsed.rules());
        assertEquals(List.of(), parsed.malformedLines());
    }
}
