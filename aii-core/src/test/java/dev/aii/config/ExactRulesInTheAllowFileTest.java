package dev.aii.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.aii.policy.Decision;
import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FileProbe;
import dev.aii.policy.Rule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The allow file's round trip of exact rules: seeded, appended, read back, listed; an older file as it was. */
class ExactRulesInTheAllowFileTest {

    private static final Rule SHUF = Rule.exactly(List.of("shuf", "data.txt"));

    @TempDir
    Path home;

    private AllowFile file() {
        return AllowFile.at(AllowFile.defaultPath(Map.of("HOME", home.toString())));
    }

    @Test
    void anExactRuleIsSeededAppendedReadBackAndListedAsWritten() throws IOException {
        AllowFile file = file();
        assertEquals(AllowFile.Added.SEEDED, file.add(SHUF));
        assertEquals(AllowFileWriteTest.SEEDED + "= shuf data.txt\n", Files.readString(file.path()));
        Rule spaced = Rule.exactly(List.of("wc", "-l", "My Notes.txt"));
        assertEquals(AllowFile.Added.APPENDED, file.add(spaced));
        // The prefix rule of the same tokens is another rule.
        assertEquals(AllowFile.Added.APPENDED, file.add(Rule.of("shuf", "data.txt")));
        assertEquals(AllowFile.Added.ALREADY_PRESENT, file.add(SHUF));
        assertEquals(AllowFileWriteTest.SEEDED + "= shuf data.txt\n= wc -l 'My Notes.txt'\nshuf data.txt\n",
                Files.readString(file.path()));
        AllowFile.Loaded loaded = file.load();
        assertEquals(List.of(), loaded.warnings());
        List<Rule> rules = loaded.rules().rules();
        assertEquals(List.of(SHUF, spaced, Rule.of("shuf", "data.txt")), rules.subList(17, rules.size()));
        String listing = file.listing(loaded);
        assertEquals("# source: " + file.path() + "\nls\n", listing.substring(0, listing.indexOf("pwd\n")));
        assertEquals("sw_vers\n= shuf data.txt\n= wc -l 'My Notes.txt'\nshuf data.txt\n",
                listing.substring(listing.indexOf("sw_vers\n")));
    }

    @Test
    void aHandWrittenExactRuleInAnyQuotingReadsAsTheSameRule() throws IOException {
        AllowFile file = file();
        Files.createDirectories(file.path().getParent());
        Files.writeString(file.path(), "= shuf \"data.txt\"\n'=' shuf data.txt\n=\n= ''\n");
        AllowFile.Loaded loaded = file.load();
        assertEquals(List.of(SHUF), loaded.rules().rules());
        assertEquals(List.of(file.path() + ": skipping malformed line 3", file.path() + ": skipping malformed line 4"),
                loaded.warnings());
    }

    @Test
    void anOlderFileKeepsItsPrefixRulesAndWhatTheyAllow() throws IOException {
        AllowFile file = file();
        Files.createDirectories(file.path().getParent());
        // A file an older aii wrote: "always" stored prefixes for programs without a table too.
        Files.writeString(file.path(), "# seeded from aii 0.9.0 built-in defaults\n# one rule per line: an argv prefix\n"
                + "ls\ngit status\nprintf %s\n");
        AllowFile.Loaded loaded = file.load();
        assertEquals(List.of(Rule.of("ls"), Rule.of("git", "status"), Rule.of("printf", "%s")),
                loaded.rules().rules());
        Environment env = new Environment("/usr/bin", "/", FileProbe.executablesOnly(p -> p.startsWith("/usr/bin/")));
        ExecPolicy policy = ExecPolicy.of(loaded.rules(), env);
        assertInstanceOf(Decision.Allow.class, policy.evaluate("printf", List.of("%s", "a", "b")));
        assertInstanceOf(Decision.Allow.class, policy.evaluate("git", List.of("status", "--short")));
        assertEquals("# source: " + file.path() + "\nls\ngit status\nprintf %s\n", file.listing(loaded));
    }
}
