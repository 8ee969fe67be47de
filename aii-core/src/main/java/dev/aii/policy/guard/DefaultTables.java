package dev.aii.policy.guard;

import static dev.aii.policy.guard.Implementation.impl;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The guard tables of the built-in defaults, on GNU coreutils (and procps
 * where Linux takes the program from there), BSD/macOS and busybox. The
 * option strings are those of the programs' sources; an option missing here
 * makes the command ask, never run.
 */
final class DefaultTables {

    private static final String CLOCK = "can set the system clock";

    /** {@code tail +1f}, {@code -1f}, {@code -cf}, {@code +f}: the obsolete spelling of follow. */
    private static final Pattern OBSOLETE_FOLLOW = Pattern.compile("[+-][0-9]*[bcl]?f");

    private DefaultTables() {
    }

    static void addTo(Map<String, ProgramReader> tables) {
        put(tables, "ls",
                impl("GNU", "abcdfghiklmnopqrstuvw:xABCDFGHI:LNQRST:UXZ1", true, true,
                        "all=a", "almost-all=A", "author", "escape=b", "block-size:", "ignore-backups=B",
                        "color::", "directory=d", "dired=D", "classify=F::", "file-type", "format:", "full-time",
                        "group-directories-first", "no-group=G", "human-readable=h", "si",
                        "dereference-command-line=H", "dereference-command-line-symlink-to-dir", "hide:",
                        "hyperlink::", "indicator-style:", "inode=i", "ignore=I:", "kibibytes=k",
                        "dereference=L", "numeric-uid-gid=n", "literal=N", "hide-control-chars=q",
                        "show-control-chars", "quote-name=Q", "quoting-style:", "reverse=r", "recursive=R",
                        "size=s", "sort:", "time:", "time-style:", "tabsize=T:", "width=w:", "context=Z",
                        "zero", "help", "version"),
                impl("BSD/macOS", "1@%,/ABCD:FGHILOPRSTUWXZabcdefghiklmnopqrstuvwxy", false, true, "color::"),
                impl("busybox", "1AaCxdLHRFplinshrSXvctukKZw:", true, true,
                        "full-time", "group-directories-first", "color::"));
        put(tables, "cat",
                impl("GNU", "benstuvAET", true, true, "show-all=A", "number-nonblank=b", "show-ends=E",
                        "number=n", "squeeze-blank=s", "show-tabs=T", "show-nonprinting=v", "help", "version"),
                impl("BSD/macOS", "belnstuv", false, true),
                impl("busybox", "nbvteA", true, true));
        put(tables, "head",
                impl("GNU", "c:n:qvz0123456789", true, true, "bytes=c:", "lines=n:", "quiet=q", "silent=q",
                        "verbose=v", "zero-terminated=z", "help", "version"),
                impl("BSD/macOS", "c:n:qv0123456789", false, true, "bytes=c:", "lines=n:", "quiet=q",
                        "silent=q", "verbose=v"),
                impl("busybox", "n:c:qv0123456789", true, true));
        put(tables, "tail",
                impl("GNU", "c:n:fFqs:vz0123456789", true, true, "bytes=c:", "follow=f::", "lines=n:",
                        "max-unchanged-stats:", "pid:", "quiet=q", "silent=q", "retry", "sleep-interval=s:",
                        "verbose=v", "zero-terminated=z", "debug", "help", "version")
                        .guard(Effect.FOLLOW, "f", "F")
                        .operands("+1f, -1f, +cf, -f (obsolete)", Effect.FOLLOW,
                                GetoptTable.leadingArgumentsMatching(OBSOLETE_FOLLOW, Effect.FOLLOW)),
                impl("BSD/macOS", "Fb:c:fn:qrv0123456789", false, true)
                        .guard(Effect.FOLLOW, "f", "F")
                        .operands("+1f, -1f (obsolete)", Effect.FOLLOW,
                                GetoptTable.leadingArgumentsMatching(OBSOLETE_FOLLOW, Effect.FOLLOW)),
                impl("busybox", "fc:n:qs:vF0123456789", true, true)
                        .guard(Effect.FOLLOW, "f", "F"));
        put(tables, "wc",
                impl("GNU", "clLmw", true, true, "bytes=c", "chars=m", "lines=l", "files0-from:",
                        "max-line-length=L", "words=w", "total:", "debug", "help", "version")
                        .guard(Effect.LIST, "--files0-from").paths(PathValue.ONE, "--files0-from"),
                impl("BSD/macOS", "clmwL", false, true, "libxo:"),
                impl("busybox", "cmlwL", true, true));
        put(tables, "date",
                impl("GNU", "d:f:I::r:Rs:u", true, true, "date=d:", "debug", "file=f:", "iso-8601=I::",
                        "reference=r:", "resolution", "rfc-email=R", "rfc-822=R", "rfc-2822=R", "rfc-3339:",
                        "set=s:", "uct=u", "utc=u", "universal=u", "help", "version")
                        .paths(PathValue.ONE, "f", "r")
                        .guardSaying(Effect.STATE, CLOCK, "s")
                        .operands("an operand that is not +FORMAT", Effect.STATE, DefaultTables::setsClock),
                // FreeBSD and macOS: plain getopt, which stops at the first operand.
                impl("BSD/macOS", "f:I::jnRr:uv:z:", false, true)
                        .operands("an operand that is not +FORMAT; after +FORMAT, a second", Effect.STATE,
                                DefaultTables::setsClock),
                // Older BSD and macOS date: -t sets the kernel's time zone, -d its daylight saving flag.
                impl("older BSD/macOS", "d:f:jnRr:t:uv:", false, true)
                        .guardSaying(Effect.STATE, "can change the kernel's time zone", "t")
                        .guardWhen(Effect.STATE, "d", "when its value is digits", v -> !v.isEmpty() && v.chars().allMatch(Character::isDigit))
                        .operands("an operand that is not +FORMAT", Effect.STATE, DefaultTables::setsClock),
                impl("busybox", "d:D:s:r:RuI::", true, true, "date=d:", "set=s:", "reference=r:",
                        "rfc-2822=R", "utc=u", "iso-8601=I::")
                        .paths(PathValue.ONE, "r")
                        .guardSaying(Effect.STATE, CLOCK, "s")
                        .operands("an operand that is not +FORMAT (also after -D)", Effect.STATE,
                                DefaultTables::setsClock));
        put(tables, "whoami",
                impl("GNU", "", true, true, "help", "version").maxOperands(0),
                impl("BSD/macOS, busybox", "", false, true).maxOperands(0));
        put(tables, "uname",
                impl("GNU", "asnrvmpio", true, true, "all=a", "kernel-name=s", "sysname=s", "nodename=n",
                        "kernel-release=r", "release=r", "kernel-version=v", "machine=m", "processor=p",
                        "hardware-platform=i", "operating-system=o", "help", "version").maxOperands(0),
                impl("BSD/macOS", "abiKmnoprsUv", false, true).maxOperands(0),
                impl("busybox", "amnrspvio", true, true).maxOperands(0));
        put(tables, "pwd",
                impl("GNU", "LP", true, true, "logical=L", "physical=P", "help", "version"),
                impl("BSD/macOS, busybox", "LP", false, true).maxOperands(0));
        put(tables, "df",
                impl("GNU", "aB:iF:hHklmPTt:vx:", true, true, "all=a", "block-size=B:", "inodes=i",
                        "human-readable=h", "si=H", "local=l", "output::", "portability=P", "print-type=T",
                        "sync", "no-sync", "total", "type=t:", "exclude-type=x:", "help", "version"),
                impl("BSD/macOS", "abcgHhiklmnPT:t:Y,", false, true, "libxo:"),
                impl("busybox", "PkmhTiaB:t:", true, true));
        put(tables, "du",
                impl("GNU", "0abd:chHklmsxB:DLPSX:t:", true, true, "null=0", "all=a", "apparent-size",
                        "block-size=B:", "bytes=b", "total=c", "dereference-args=D", "max-depth=d:",
                        "files0-from:", "human-readable=h", "inodes", "si", "dereference=L", "count-links=l",
                        "no-dereference=P", "separate-dirs=S", "summarize=s", "threshold=t:", "time::",
                        "time-style:", "exclude-from=X:", "exclude:", "one-file-system=x", "help", "version")
                        .guard(Effect.LIST, "--files0-from").paths(PathValue.ONE, "--files0-from", "X"),
                impl("BSD/macOS", "AB:HI:LPacd:ghklmnrst:x", false, true, "si", "libxo:"),
                impl("busybox", "aHLsxhcmkld:b", true, true));
        put(tables, "stat",
                impl("GNU", "c:fLt", true, true, "dereference=L", "file-system=f", "format=c:", "printf:",
                        "terse=t", "cached:", "help", "version"),
                impl("BSD/macOS", "f:FlLnqrst:x", false, true),
                impl("busybox", "c:fLt", true, true));
        put(tables, "file",
                fileGuards(impl("file (Linux, BSD)", "bcCde:Ef:F:hiklLm:nNpP:rsSvzZ0", true, false,
                        "help", "version=v", "magic-file=m:", "uncompress=z", "uncompress-noreport=Z",
                        "brief=b", "checking-printout=c", "exclude=e:", "exclude-quiet:", "files-from=f:",
                        "separator=F:", "mime=i", "apple", "extension", "mime-type", "mime-encoding",
                        "keep-going=k", "list=l", "dereference=L", "no-dereference=h", "no-buffer=n",
                        "no-pad=N", "print0=0", "preserve-date=p", "parameter=P:", "raw=r",
                        "special-files=s", "no-sandbox=S", "compile=C", "debug=d")),
                fileGuards(impl("file (macOS)", "bcCdDe:Ef:F:hiIkLm:M:nNpP:rsSvzZ0", true, false,
                        "help", "version=v", "magic-file=m:", "uncompress=z", "uncompress-noreport=Z",
                        "brief=b", "checking-printout=c", "exclude=e:", "exclude-quiet:", "files-from=f:",
                        "separator=F:", "mime=I", "extension", "mime-type", "mime-encoding",
                        "keep-going=k", "list=l", "dereference=L", "no-dereference=h", "no-buffer=n",
                        "no-pad=N", "print0=0", "preserve-date=p", "parameter=P:", "raw=r",
                        "special-files=s", "no-sandbox=S", "compile=C", "debug=D")));
        put(tables, "which",
                impl("Debian, BSD/macOS, busybox", "as", false, true),
                impl("GNU which", "aivVn:", true, true, "all=a", "read-alias=i", "read-functions",
                        "skip-alias", "skip-functions", "skip-dot", "skip-tilde", "show-dot", "show-tilde",
                        "tty-only", "version=v", "help"));
        put(tables, "uptime",
                impl("procps", "hpsV", true, true, "help=h", "pretty=p", "since=s", "version=V").maxOperands(0),
                impl("GNU", "", true, true, "help", "version").maxOperands(1),
                impl("BSD/macOS, busybox", "", false, true).maxOperands(0));
        tables.put("ps", new PsReader());
        tables.put("sw_vers", new SwVersReader());
    }

    /** What both files guard: writing a compiled magic file, setting times back, decompressors, lists, paths. */
    private static Implementation fileGuards(Implementation file) {
        return file.guardSaying(Effect.WRITE, "can write a compiled magic file", "C")
                .guardSaying(Effect.WRITE, "sets the files' access times back", "p")
                .guardSaying(Effect.EXEC, "runs an external decompressor", "z")
                .guardSaying(Effect.EXEC, "runs an external decompressor", "Z")
                .guard(Effect.LIST, "f")
                // libmagic loads every file of a directory given to -m, through links.
                .paths(PathValue.list(":").readingDirectories(), "m").paths(PathValue.ONE, "f");
    }

    static void put(Map<String, ProgramReader> tables, String program, Implementation... impls) {
        tables.put(program, new GetoptTable(program, List.of(impls)));
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
    static void setsClock(Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        List<Getopt.Operand> operands = parsed.operands();
        if (operands.isEmpty() || parsed.has("j")) {
            return;
        }
        Getopt.Operand first = operands.get(0);
        if (!first.value().startsWith("+")) {
            out.effect(first.index(), CLOCK);
        } else if (operands.size() > 1 && (!operands.get(1).value().startsWith("-") || parsed.has("f"))) {
            out.effect(operands.get(1).index(), CLOCK);
        }
    }
}
