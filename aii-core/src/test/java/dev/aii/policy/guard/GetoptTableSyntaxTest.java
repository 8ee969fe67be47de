package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A table's option strings are parsed at its first use; a guard of an option
 * its syntax lacks is still refused, then or (once parsed) at once.
 */
class GetoptTableSyntaxTest {

    @Test
    void aGuardOfAnUnknownOptionIsRefusedWhenTheSyntaxIsFirstNeeded() {
        Implementation impl = Implementation.impl("test", "ab:", true, true, "bytes=b:")
                .guard(Effect.WRITE, "z");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, impl::syntax);
        assertEquals("test has no option z", e.getMessage());
    }

    @Test
    void onceParsedAGuardOfAnUnknownOptionIsRefusedAtOnce() {
        Implementation impl = Implementation.impl("test", "ab:", true, true);
        assertTrue(impl.syntax().knows("b"));
        assertThrows(IllegalArgumentException.class, () -> impl.guard(Effect.WRITE, "--nope"));
    }

    @Test
    void theSyntaxIsParsedOnce() {
        Implementation impl = Implementation.impl("test", "a", true, true).guard(Effect.EXEC, "a");
        assertTrue(impl.syntax() == impl.syntax());
    }
}
