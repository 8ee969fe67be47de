package dev.aii.policy.guard;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The guard table of {@code find} (GNU findutils, BSD/macOS, busybox), read
 * as find reads its expression rather than with getopt: options, starting
 * points, then primaries with their arguments. {@code -exec}, {@code -execdir},
 * {@code -ok}, {@code -okdir} run programs; {@code -delete}, {@code -fprint},
 * {@code -fprint0}, {@code -fprintf}, {@code -fls} write. A primary aii does
 * not know asks: every find refuses one before it starts.
 */
final class FindReader implements ProgramReader {

    /** Primaries and how many arguments each takes. */
    private static final Map<String, Integer> PRIMARIES = Map.ofEntries(
            Map.entry("-print", 0), Map.entry("-print0", 0), Map.entry("-ls", 0), Map.entry("-prune", 0),
            Map.entry("-quit", 0), Map.entry("-true", 0), Map.entry("-false", 0), Map.entry("-empty", 0),
            Map.entry("-readable", 0), Map.entry("-writable", 0), Map.entry("-executable", 0),
            Map.entry("-nouser", 0), Map.entry("-nogroup", 0), Map.entry("-xdev", 0), Map.entry("-mount", 0),
            Map.entry("-depth", 0), Map.entry("-daystart", 0), Map.entry("-follow", 0), Map.entry("-noleaf", 0),
            Map.entry("-ignore_readdir_race", 0), Map.entry("-noignore_readdir_race", 0), Map.entry("-d", 0),
            Map.entry("-delete", 0), Map.entry("-xattr", 0), Map.entry("-help", 0), Map.entry("-version", 0),
            Map.entry("-name", 1), Map.entry("-iname", 1), Map.entry("-path", 1), Map.entry("-ipath", 1),
            Map.entry("-wholename", 1), Map.entry("-iwholename", 1), Map.entry("-regex", 1),
            Map.entry("-iregex", 1), Map.entry("-lname", 1), Map.entry("-ilname", 1), Map.entry("-type", 1),
            Map.entry("-xtype", 1), Map.entry("-user", 1), Map.entry("-group", 1), Map.entry("-uid", 1),
            Map.entry("-gid", 1), Map.entry("-perm", 1), Map.entry("-size", 1), Map.entry("-mtime", 1),
            Map.entry("-atime", 1), Map.entry("-ctime", 1), Map.entry("-mmin", 1), Map.entry("-amin", 1),
            Map.entry("-cmin", 1), Map.entry("-used", 1), Map.entry("-newer", 1), Map.entry("-anewer", 1),
            Map.entry("-cnewer", 1), Map.entry("-samefile", 1), Map.entry("-inum", 1), Map.entry("-links", 1),
            Map.entry("-maxdepth", 1), Map.entry("-mindepth", 1), Map.entry("-fstype", 1),
            Map.entry("-printf", 1), Map.entry("-regextype", 1), Map.entry("-context", 1),
            Map.entry("-files0-from", 1), Map.entry("-Bmin", 1), Map.entry("-Btime", 1),
            Map.entry("-Bnewer", 1), Map.entry("-flags", 1), Map.entry("-mnewer", 1),
            Map.entry("-fprint", 1), Map.entry("-fprint0", 1), Map.entry("-fls", 1), Map.entry("-fprintf", 2));

    private static final Set<String> WRITE = Set.of("-delete", "-fprint", "-fprint0", "-fls", "-fprintf");
    private static final Set<String> EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> OPERATORS = Set.of("(", ")", "!", "-not", "-a", "-and", "-o", "-or", ",");
    private static final Pattern NEWER_XY = Pattern.compile("-newer[aBcmt][aBcmt]");

    @Override
    public void read(List<String> args, GuardHits out) {
        int i = 0;
        // Options before the starting points: GNU -H -L -P -D LIST -O LEVEL, BSD -E -H -L -P -X -d -s -x -f PATH.
        while (i < args.size()) {
            String a = args.get(i);
            if (a.equals("-D") || a.equals("-f")) {
                if (i + 1 < args.size()) {
                    out.path(i, args.get(i + 1), false);
                }
                i += 2;
            } else if (a.matches("-O[0-9]*|-[HLPEXdsx]+")) {
                i++;
            } else if (a.equals("--")) {
                i++;
                break;
            } else {
                break;
            }
        }
        while (i < args.size() && !args.get(i).startsWith("-") && !OPERATORS.contains(args.get(i))) {
            out.path(i, args.get(i), false);
            i++;
        }
        while (i < args.size()) {
            int at = i;
            String a = args.get(i++);
            if (OPERATORS.contains(a)) {
                continue;
            }
            if (EXEC.contains(a)) {
                out.effect(at, Effect.EXEC);
                while (i < args.size() && !args.get(i).equals(";") && !args.get(i).equals("+")) {
                    i++;
                }
                i++;
                continue;
            }
            Integer count = PRIMARIES.get(a);
            if (count == null && NEWER_XY.matcher(a).matches()) {
                count = 1;
            }
            if (count == null || i + count > args.size()) {
                out.rejected(at);
                return;
            }
            if (WRITE.contains(a)) {
                out.effect(at, Effect.WRITE);
            }
            if (a.equals("-files0-from")) {
                out.effect(at, Effect.LIST);
            }
            for (int k = 0; k < count; k++) {
                out.path(at, args.get(i + k), false);
            }
            i += count;
        }
    }

    @Override
    public Vocabulary vocabulary() {
        List<Vocabulary.Word> words = new java.util.ArrayList<>();
        for (String option : List.of("-H", "-L", "-P", "-E", "-X", "-d", "-s", "-x", "-O3")) {
            words.add(new Vocabulary.Word(option, Vocabulary.Takes.NONE, null, false));
        }
        words.add(new Vocabulary.Word("-D", Vocabulary.Takes.REQUIRED, null, false));
        words.add(new Vocabulary.Word("-f", Vocabulary.Takes.REQUIRED, null, false));
        PRIMARIES.forEach((name, count) -> words.add(new Vocabulary.Word(name, count == 0 ? Vocabulary.Takes.NONE
                : count == 1 ? Vocabulary.Takes.REQUIRED : Vocabulary.Takes.TWO, null,
                WRITE.contains(name) || name.equals("-files0-from"))));
        for (String exec : EXEC) {
            words.add(new Vocabulary.Word(exec, Vocabulary.Takes.NONE, null, true));
        }
        for (String operator : OPERATORS) {
            words.add(new Vocabulary.Word(operator, Vocabulary.Takes.NONE, null, false));
        }
        words.add(new Vocabulary.Word("-newermt", Vocabulary.Takes.REQUIRED, null, false));
        return Vocabulary.of(List.of(new Vocabulary.Dialect("find", words, null, false, true)));
    }

    @Override
    public List<TableRow> rows() {
        return List.of(
                new TableRow("`-exec`, `-execdir`, `-ok`, `-okdir`", Effect.EXEC, "GNU, BSD/macOS, busybox"),
                new TableRow("`-delete`", Effect.WRITE, "GNU, BSD/macOS, busybox"),
                new TableRow("`-fprint F`, `-fprint0 F`, `-fprintf F FMT`, `-fls F`", Effect.WRITE, "GNU"),
                new TableRow("`-files0-from F`", Effect.LIST, "GNU"));
    }
}
