package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The guard table, row by row, and the argument forms it is read in. */
class ArgumentGuardsTest {

    static final String CLOCK = "this form of date can set the system clock";
    static final String COMPILE = "this form of file can write a compiled magic file";
    static final String DECOMPRESS = "this form of file runs an external decompressor";

    private static List<String> reasons(String program, String... arguments) {
        return ArgumentGuards.applying(program, List.of(arguments)).stream().map(ArgumentGuards.Guard::reason).toList();
    }

    @Test
    void theTableHasTheseRowsInThisOrder() {
        assertEquals(List.of("date " + CLOCK, "file " + COMPILE, "file " + DECOMPRESS),
                ArgumentGuards.TABLE.stream().map(g -> g.program() + " " + g.reason()).toList());
    }

    static Stream<Arguments> guarded() {
        return Stream.of(
                // date: -s / --set (GNU)
                argumentSet("date -s", "date", "-s 2020-01-01", CLOCK),
                argumentSet("date --set value", "date", "--set 2020-01-01", CLOCK),
                argumentSet("date --set=value", "date", "--set=2020-01-01", CLOCK),
                argumentSet("date --se abbreviated", "date", "--se 2020-01-01", CLOCK),
                argumentSet("date --s= abbreviated", "date", "--s=2020-01-01", CLOCK),
                argumentSet("date -s value attached", "date", "-s2020-01-01", CLOCK),
                argumentSet("date -s in a cluster", "date", "-us 2020-01-01", CLOCK),
                argumentSet("date -s after an operand (GNU permutes)", "date", "+%s -s 2020-01-01", CLOCK),
                argumentSet("date -s after a value-taking option", "date", "-d now -s 2020-01-01", CLOCK),
                // date: the operand that sets the clock (GNU MMDDhhmm[[CC]YY][.ss], BSD [[[[[cc]yy]mm]dd]HH]MM[.SS])
                argumentSet("date MMDDhhmmYY", "date", "0101000020", CLOCK),
                argumentSet("date with seconds", "date", "010100002020.30", CLOCK),
                argumentSet("date operand after -u", "date", "-u 0101000020", CLOCK),
                argumentSet("date operand that is not digits", "date", "2020-01-01", CLOCK),
                argumentSet("date operand after --", "date", "-- 0101000020", CLOCK),
                argumentSet("date BSD operand after +FORMAT", "date", "+%s 0101000020", CLOCK),
                argumentSet("date BSD operand with -f", "date", "-f %Y-%m-%d 2020-01-01", CLOCK),
                argumentSet("date BSD -f parses even a '-' operand after +FORMAT", "date", "-f -%Y +%s -2020", CLOCK),
                argumentSet("date BSD operand after an option GNU rejects", "date", "0101000020 -Q", CLOCK),
                // file -C / --compile
                argumentSet("file -C", "file", "-C", COMPILE),
                argumentSet("file -C -m x", "file", "-C -m x", COMPILE),
                argumentSet("file -Cm x clustered", "file", "-Cm x", COMPILE),
                argumentSet("file --compile", "file", "--compile -m x", COMPILE),
                argumentSet("file --comp abbreviated", "file", "--comp", COMPILE),
                argumentSet("file -C after the magic file", "file", "-m x -C", COMPILE),
                argumentSet("file -C after an operand", "file", "x -C", COMPILE),
                // file -z / -Z / --uncompress / --uncompress-noreport
                argumentSet("file -z", "file", "-z x", DECOMPRESS),
                argumentSet("file -Z", "file", "-Z x", DECOMPRESS),
                argumentSet("file -zb clustered", "file", "-zb x", DECOMPRESS),
                argumentSet("file -bz clustered", "file", "-bz x", DECOMPRESS),
                argumentSet("file --uncompress", "file", "--uncompress x", DECOMPRESS),
                argumentSet("file --uncompress-noreport", "file", "--uncompress-noreport x", DECOMPRESS),
                argumentSet("file --unc, ambiguous between two guarded options", "file", "--unc x", DECOMPRESS),
                argumentSet("file --uncompress-n abbreviated", "file", "--uncompress-n x", DECOMPRESS),
                argumentSet("file -M is macOS only: elsewhere -z stays a flag", "file", "-M -z x", DECOMPRESS),
                argumentSet("file --c, ambiguous: compile or checking-printout", "file", "--c x", COMPILE));
    }

    @ParameterizedTest
    @MethodSource("guarded")
    void aGuardedFormIsFound(String program, String arguments, String reason) {
        assertEquals(List.of(reason), reasons(program, arguments.split(" ")));
    }

    static Stream<Arguments> notGuarded() {
        return Stream.of(
                argumentSet("date alone", "date", ""),
                argumentSet("date +FORMAT", "date", "+%Y-%m-%d"),
                argumentSet("date -u +FORMAT", "date", "-u +%s"),
                argumentSet("date -d takes the next argument as its value", "date", "-d 0101000020"),
                argumentSet("date -d with a value that looks like -s", "date", "--date=-s +%s"),
                argumentSet("date -r FILE", "date", "-r /etc/passwd"),
                argumentSet("date -Iseconds", "date", "-Iseconds"),
                argumentSet("date --iso-8601=seconds", "date", "--iso-8601=seconds"),
                argumentSet("date --rfc-3339 takes a value", "date", "--rfc-3339 seconds"),
                argumentSet("date --utc, --u for all of uct utc universal", "date", "--u +%s"),
                argumentSet("date +FORMAT then an option (BSD: rejected, not set)", "date", "+%s -u"),
                argumentSet("date -v BSD adjustment", "date", "-v +1d +%F"),
                argumentSet("date -s as a value of -d", "date", "-d -s"),
                argumentSet("date -d STRING (GNU; BSD rejects -d)", "date", "-d tomorrow +%F"),
                argumentSet("date --date=STRING with an s in it", "date", "--date=yesterday"),
                argumentSet("date -s without its value: every date rejects it", "date", "-s"),
                argumentSet("date --r, ambiguous: GNU rejects it", "date", "--r 0101000020"),
                argumentSet("date --utc=x: GNU rejects a value for a flag", "date", "--utc=x 0101000020"),
                argumentSet("date -j: BSD does not set, GNU rejects -j", "date", "-j -f %s 1700000000 +%Y"),
                argumentSet("file alone", "file", "x"),
                argumentSet("file -b -i", "file", "-bi x"),
                argumentSet("file -m takes the next argument, even -C", "file", "-m -C x"),
                argumentSet("file -m with an attached value holding z", "file", "-mz x"),
                argumentSet("file -e takes a value", "file", "-e compress x"),
                argumentSet("file -F takes a value", "file", "-F -z x"),
                argumentSet("file --magic-file=value", "file", "--magic-file=-z x"),
                argumentSet("file -- ends options", "file", "-- -z -C"),
                argumentSet("file --mime (exact, though --mime-type exists)", "file", "--mime x"),
                argumentSet("file --checking-printout", "file", "--checking-printout x"),
                argumentSet("file -c", "file", "-c -m x"),
                argumentSet("an unguarded program", "ls", "-s 0101000020"));
    }

    @ParameterizedTest
    @MethodSource("notGuarded")
    void otherFormsAreNotGuarded(String program, String arguments) {
        String[] args = arguments.isEmpty() ? new String[0] : arguments.split(" ");
        assertEquals(List.of(), reasons(program, args));
    }

    @Test
    void aCommandCanHitSeveralRows() {
        assertEquals(List.of(COMPILE, DECOMPRESS), reasons("file", "-zC", "-m", "x"));
    }

    static Stream<Arguments> spelling() {
        return Stream.of(
                argumentSet("bare date does not spell out -s", "date", "date -s 2020-01-01", false),
                argumentSet("date -s does", "date -s", "date -s 2020-01-01", true),
                argumentSet("date --set does for -s", "date --set", "date -s 2020-01-01", true),
                argumentSet("date --se does for --set", "date -s", "date --se=2020-01-01", true),
                argumentSet("date -u does not", "date -u", "date -u -s 2020-01-01", false),
                argumentSet("date 0101000020 does for the operand", "date 0101000020", "date 0101000020", true),
                argumentSet("date +%s does not", "date +%s", "date +%s 0101000020", false),
                argumentSet("file -C does for -C", "file -C", "file -C -m x", true),
                argumentSet("file -C does not for -z", "file -C", "file -C -z x", false),
                argumentSet("file -zC does for both", "file -zC", "file -zC x", true),
                argumentSet("file -m -C names a magic file, not -C", "file -m -C", "file -m -C -C", false));
    }

    @ParameterizedTest
    @MethodSource("spelling")
    void aRuleSpellsOutTheGuardsItsOwnArgumentsHit(String rule, String command, boolean spelledOut) {
        List<String> argv = Arrays.asList(command.split(" "));
        List<ArgumentGuards.Guard> guards = ArgumentGuards.applying(argv.getFirst(), argv.subList(1, argv.size()));
        assertEquals(spelledOut, ArgumentGuards.spelledOutBy(FakeFiles.parse(rule), guards));
    }
}
