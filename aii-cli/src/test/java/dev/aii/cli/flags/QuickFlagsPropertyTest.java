package dev.aii.cli.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every command line that the quick reader accepts is read by picocli the
 * same way, with no error: seeded random command lines from the words that
 * matter (every flag and spelling, values that look like options, repeats,
 * unknown options, a lone dash, {@code --}). A failure prints its seed;
 * {@code -Daii.test.seed=} replays it.
 */
class QuickFlagsPropertyTest {

    private static final String[] TOKENS = {
        "-i", "-j", "-m", "-x", "-h", "-f", "-ix", "-ijx", "-jx", "-xj", "-mj", "-jf", "-xf", "-fnotes.md", "-f=x",
        "-jfnotes.md", "-z", "-iz", "-", "--", "--interactive", "--json", "--model-info", "--exec", "--list-allowed",
        "--reset-allowed", "--check", "--version", "--help", "--file", "--file=notes.md", "--file=", "--model",
        "--model=llama3.2", "--model=", "--model-file", "--model-file=m.gguf", "m.gguf", "--nope", "--json=true", "--js", "--exe", "notes.md", "llama3.2", "hello",
        "what is 2+2", "", " ", "-la", "-1", "--x=y", "a=b", "@args", "ls", "x y", "\u00e9t\u00e9", "-\u00e9",
    };

    private record Read(List<String> words, String prompt, boolean interactive, String file, boolean json,
                        boolean modelInfo, String model, String modelFile, boolean exec, boolean listAllowed, boolean resetAllowed,
                        boolean check, boolean version, boolean help) {

        static Read of(Options o) {
            return new Read(List.copyOf(o.words), o.prompt, o.interactive, o.file, o.json, o.modelInfo, o.model,
                    o.modelFile, o.exec, o.listAllowed, o.resetAllowed, o.check, o.version, o.help);
        }
    }

    private static List<String> commandLine(Random random) {
        List<String> args = new ArrayList<>();
        for (int n = random.nextInt(7); n > 0; n--) {
            args.add(TOKENS[random.nextInt(TOKENS.length)]);
        }
        return args;
    }

    @Test
    void whateverTheQuickReaderAcceptsPicocliReadsTheSameWay() {
        String fixed = System.getProperty("aii.test.seed");
        long seed = fixed == null || fixed.isBlank() ? new Random().nextLong() : Long.parseLong(fixed.trim());
        Random random = new Random(seed);
        int accepted = 0;
        for (int run = 0; run < 20_000; run++) {
            List<String> args = commandLine(random);
            Options quick = QuickFlags.parse(args);
            if (quick == null) {
                continue;
            }
            accepted++;
            Options picocli = new Options();
            Optional<String> error = Flags.parse(picocli, args.toArray(new String[0]));
            String context = "seed " + seed + " (replay: -Daii.test.seed=" + seed + "), try " + run + ", " + args;
            assertEquals(Optional.empty(), error, context);
            assertEquals(Read.of(picocli), Read.of(quick), context);
        }
        // Not a test that passes by accepting nothing: most command lines people type are taken.
        assertTrue(accepted > 2_000, "accepted only " + accepted + " of 20000 (seed " + seed + ")");
    }

    @Test
    void theCommandLinesPeopleTypeAreReadWithoutPicocli() {
        for (List<String> args : List.of(List.of("hi"), List.of("what", "is", "2+2"), List.of("-x", "list", "files"),
                List.of("-ix"), List.of("-f", "notes.md", "summarise"), List.of("--model", "llama3.2", "-i"),
                List.of("-j", "--check"), List.of("--list-allowed", "--json"), List.of("--", "-x", "is", "a", "flag"),
                List.of("-m"), List.of("-mj", "--model=qwen"), List.<String>of())) {
            assertNotNull(QuickFlags.parse(args), args.toString());
        }
    }

    @Test
    void whatItIsNotSureOfIsLeftToPicocli() {
        for (List<String> args : List.of(List.of("--nope"), List.of("-z"), List.of("-"), List.of("-x", "-x"),
                List.of("--json", "-j"), List.of("-f"), List.of("-f", "-x"), List.of("--file", "--json"),
                List.of("--model"), List.of("--file=a", "-fb"), List.of("--json=true"), List.of("--js"),
                List.of("-f=x"), List.of("--file="), List.of("-1"))) {
            assertNull(QuickFlags.parse(args), args.toString());
        }
    }
}
