package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Tables of {@code ask <command>} and {@code run <command>} lines (arguments split on spaces), and their check. */
final class CaseTable {

    private CaseTable() {
    }

    static Stream<Arguments> rows(String table) {
        List<Arguments> rows = new ArrayList<>();
        for (String line : table.split("\n")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] parts = t.split(" ");
            rows.add(Arguments.argumentSet(t, parts[0].equals("ask"),
                    new ArrayList<>(Arrays.asList(parts).subList(1, parts.length))));
        }
        return rows.stream();
    }

    /** An {@code ask} row asks as a guarded form, without "always"; a {@code run} row runs unasked. */
    static void check(ExecPolicy policy, boolean asks, List<String> argv) {
        Decision decision = policy.evaluate(argv.get(0), argv.subList(1, argv.size()));
        if (asks) {
            Decision.Ask ask = assertInstanceOf(Decision.Ask.class, decision, () -> "should ask: " + decision);
            assertEquals(Decision.Always.GUARDED, ask.always(), ask::toString);
            assertTrue(ask.alwaysPrefix().isEmpty());
        } else if (!(decision instanceof Decision.Allow)) {
            fail("should run unasked: " + decision);
        }
    }
}
