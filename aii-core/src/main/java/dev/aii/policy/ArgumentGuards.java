package dev.aii.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Argument forms that make an otherwise harmless program change the system,
 * as data: the guard table and the option tables it is read with. A command
 * that uses a guarded form is allowed only by a rule that spells the form out
 * itself (see {@link #spelledOutBy}); otherwise it goes to the prompt, with
 * the row's reason as a note and without "always".
 *
 * <p>A program can have several implementations (GNU on Linux, BSD on macOS)
 * that read the same arguments differently, and aii does not know which one a
 * path holds. So a command is read with the option table of every
 * implementation, and a row applies when it applies under any of them. A
 * reading that the implementation would reject with a usage error before
 * acting (date: an option it does not know, such as GNU's {@code -d} for BSD
 * date) cannot do harm under that implementation and is left out; file acts on
 * {@code -f} lists while it still reads options, so all its readings count.
 */
final class ArgumentGuards {

    /**
     * One row of the table.
     *
     * @param program the program name the row is about
     * @param options option keys (short letters; long options stand for their letter) that are guarded
     * @param operands a guarded operand form, given the whole reading of the command
     * @param reason what the form can do, shown as {@code note: <reason>}
     */
    record Guard(String program, Set<String> options, Predicate<Getopt.Parsed> operands, String reason) {
        Guard {
            Objects.requireNonNull(program, "program");
            options = Set.copyOf(options);
            Objects.requireNonNull(operands, "operands");
            Objects.requireNonNull(reason, "reason");
        }

        boolean appliesTo(Getopt.Parsed parsed) {
            return parsed.options().stream().anyMatch(o -> o.keys().stream().anyMatch(options::contains))
                    || operands.test(parsed);
        }
    }

    private static final Predicate<Getopt.Parsed> NO_OPERAND = parsed -> false;

    /** The guard table. docs/exec.md shows it; keep the two in step. */
    static final List<Guard> TABLE = List.of(
            new Guard("date", Set.of("s"), ArgumentGuards::setsClock,
                    "this form of date can set the system clock"),
            new Guard("file", Set.of("C"), NO_OPERAND,
                    "this form of file can write a compiled magic file"),
            new Guard("file", Set.of("z", "Z"), NO_OPERAND,
                    "this form of file runs an external decompressor"));

    /** The option tables of each guarded program's implementations, from their sources. */
    static final Map<String, List<OptionSyntax>> SYNTAX = Map.of(
            "date", List.of(
                    OptionSyntax.of("GNU coreutils date", "d:f:I::r:Rs:u", true, true,
                            "date=d:", "debug", "file=f:", "iso-8601=I::", "reference=r:", "resolution",
                            "rfc-email=R", "rfc-822=R", "rfc-2822=R", "rfc-3339:", "set=s:",
                            "uct=u", "utc=u", "universal=u", "help", "version"),
                    // FreeBSD and macOS: plain getopt, which stops at the first operand.
                    OptionSyntax.of("BSD date", "f:I::jnRr:uv:z:", false, true)),
            "file", List.of(
                    OptionSyntax.of("file (Linux, BSD)", "bcCde:Ef:F:hiklLm:nNpP:rsSvzZ0", true, false,
                            "help", "version=v", "magic-file=m:", "uncompress=z", "uncompress-noreport=Z",
                            "brief=b", "checking-printout=c", "exclude=e:", "exclude-quiet:", "files-from=f:",
                            "separator=F:", "mime=i", "apple", "extension", "mime-type", "mime-encoding",
                            "keep-going=k", "list=l", "dereference=L", "no-dereference=h", "no-buffer=n",
                            "no-pad=N", "print0=0", "preserve-date=p", "parameter=P:", "raw=r",
                            "special-files=s", "no-sandbox=S", "compile=C", "debug=d"),
                    OptionSyntax.of("file (macOS)", "bcCdDe:Ef:F:hiIkLm:M:nNpP:rsSvzZ0", true, false,
                            "help", "version=v", "magic-file=m:", "uncompress=z", "uncompress-noreport=Z",
                            "brief=b", "checking-printout=c", "exclude=e:", "exclude-quiet:", "files-from=f:",
                            "separator=F:", "mime=I", "extension", "mime-type", "mime-encoding",
                            "keep-going=k", "list=l", "dereference=L", "no-dereference=h", "no-buffer=n",
                            "no-pad=N", "print0=0", "preserve-date=p", "parameter=P:", "raw=r",
                            "special-files=s", "no-sandbox=S", "compile=C", "debug=D")));

    private static final Map<String, List<Guard>> BY_PROGRAM =
            TABLE.stream().collect(Collectors.groupingBy(Guard::program));

    private ArgumentGuards() {
    }

    /** The rows that apply to the command {@code program} with {@code arguments}, in table order. */
    static List<Guard> applying(String program, List<String> arguments) {
        return applying(program, arguments, false);
    }

    /**
     * @param prefix whether {@code arguments} are a rule's prefix, which may
     *               end before a value ({@code date -s}), rather than a whole command
     */
    private static List<Guard> applying(String program, List<String> arguments, boolean prefix) {
        List<Guard> rows = BY_PROGRAM.get(program);
        if (rows == null) {
            return List.of();
        }
        List<Getopt.Parsed> readings = new ArrayList<>();
        for (OptionSyntax syntax : SYNTAX.getOrDefault(program, List.of())) {
            Getopt.Parsed parsed = Getopt.parse(syntax, arguments);
            boolean usageError = parsed.rejected() || (parsed.valueMissing() && !prefix);
            if (!(syntax.stopsOnError() && usageError)) {
                readings.add(parsed);
            }
        }
        return rows.stream().filter(row -> readings.stream().anyMatch(row::appliesTo)).toList();
    }

    /**
     * Whether {@code rule} spells out every row in {@code guards}: its own
     * argument prefix, read the same way, is a guarded form of each. So
     * {@code date -s} and {@code date --set 2030-01-01} spell out the clock row,
     * the bare {@code date} does not.
     */
    static boolean spelledOutBy(Rule rule, List<Guard> guards) {
        return applying(rule.program(), rule.argumentPrefix(), true).containsAll(guards);
    }

    /**
     * Whether a date command has an operand that sets the clock: the first
     * operand when it does not start with {@code +} (GNU and BSD date set the
     * clock from it; only {@code +FORMAT} prints); or, after a leading
     * {@code +FORMAT}, a second operand, which BSD date also sets the clock
     * from, unless it starts with {@code -} and no {@code -f} format is given
     * (then BSD date can only reject it). BSD's {@code -j} ("do not try to set
     * the date") makes any operand harmless; GNU date rejects {@code -j}.
     */
    static boolean setsClock(Getopt.Parsed parsed) {
        List<String> operands = parsed.operands();
        if (operands.isEmpty() || parsed.has("j")) {
            return false;
        }
        if (!operands.get(0).startsWith("+")) {
            return true;
        }
        return operands.size() > 1 && (!operands.get(1).startsWith("-") || parsed.has("f"));
    }
}
