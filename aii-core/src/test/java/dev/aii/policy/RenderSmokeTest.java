package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class RenderSmokeTest {
    @Test
    void quotesSpaces() {
        assertEquals("ls 'a b'", Render.render(List.of("ls", "a b")));
    }

    @Property(tries = 50)
    void quoteJoinParsesBack(@ForAll String token) throws Exception {
        if (token.indexOf('\n') >= 0) return;
        assertEquals(List.of("x", token), Rule.parse(Render.quoteJoin(List.of("x", token))).tokens());
    }
}
