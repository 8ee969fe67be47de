package dev.aii.cli.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/** The command lines answered without picocli, and the help text the build renders for them. */
class ShortcutTest {

    @Test
    void theBuiltHelpTextIsWhatPicocliRendersFromOptions() {
        assertNotNull(HelpData.text(), "the build renders the help into HelpData");
        assertEquals(Flags.usage(), HelpData.text());
        assertEquals(Flags.usage(), HelpText.raw());
        assertEquals(HelpLayout.fit(Flags.usage(), Columns.DEFAULT), HelpData.fittedToDefault());
        assertEquals(HelpLayout.fit(Flags.usage(), Columns.DEFAULT), HelpText.get(Columns.DEFAULT));
        assertEquals(HelpLayout.fit(Flags.usage(), 79), HelpText.get(79));
    }

    @Test
    void onlyAWholeCommandLineOfOneShortFlagIsAShortcut() {
        assertEquals(Shortcut.HELP, Shortcut.of(new String[] {"--help"}, false));
        assertEquals(Shortcut.HELP, Shortcut.of(new String[] {"-h"}, false));
        assertEquals(Shortcut.VERSION, Shortcut.of(new String[] {"--version"}, false));
        assertEquals(Shortcut.LIST_ALLOWED, Shortcut.of(new String[] {"--list-allowed"}, true));
        assertEquals(Shortcut.HELP, Shortcut.of(new String[0], true));
        assertEquals(Shortcut.NONE, Shortcut.of(new String[0], false));
        assertEquals(Shortcut.NONE, Shortcut.of(new String[] {"--list-allowed", "--json"}, false));
        assertEquals(Shortcut.NONE, Shortcut.of(new String[] {"-hx"}, false));
        assertEquals(Shortcut.NONE, Shortcut.of(new String[] {"--", "--help"}, false));
        assertEquals(Shortcut.NONE, Shortcut.of(new String[] {"--reset-allowed"}, false));
    }
}
