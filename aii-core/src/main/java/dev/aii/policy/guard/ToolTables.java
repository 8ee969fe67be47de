package dev.aii.policy.guard;

import static dev.aii.policy.guard.DefaultTables.put;
import static dev.aii.policy.guard.Implementation.impl;

import java.util.Map;

/**
 * The guard tables of programs people commonly allow with "always": text
 * tools, viewers, man, base64. GTFOBins' file-write, command and shell
 * functions were the checklist; a program here that can do neither only has
 * its options listed, so that an option aii does not know asks.
 */
final class ToolTables {

    private ToolTables() {
    }

    static void addTo(Map<String, ProgramReader> tables) {
        put(tables, "sort",
                impl("GNU", "bcCdfghik:mMno:rRsS:t:T:uVy:z", true, true, "ignore-leading-blanks=b",
                        "check=c::", "compress-program:", "debug", "dictionary-order=d", "files0-from:",
                        "ignore-case=f", "general-numeric-sort=g", "human-numeric-sort=h",
                        "ignore-nonprinting=i", "key=k:", "merge=m", "month-sort=M", "numeric-sort=n",
                        "output=o:", "parallel:", "random-sort=R", "random-source:", "reverse=r", "sort:",
                        "stable=s", "buffer-size=S:", "field-separator=t:", "temporary-directory=T:",
                        "unique=u", "version-sort=V", "zero-terminated=z", "batch-size:", "help", "version")
                        .guard(Effect.WRITE, "o", "T").guard(Effect.EXEC, "--compress-program")
                        .guard(Effect.LIST, "--files0-from").paths(PathValue.ONE, "--files0-from", "--random-source"),
                impl("BSD/macOS", "bcCdfghik:Mmno:RrsS:t:T:uVz", false, true, "ignore-leading-blanks=b",
                        "check=c::", "compress-program:", "debug", "dictionary-order=d", "files0-from:",
                        "ignore-case=f", "general-numeric-sort=g", "human-numeric-sort=h",
                        "ignore-nonprinting=i", "key=k:", "merge=m", "month-sort=M", "numeric-sort=n",
                        "output=o:", "parallel:", "random-sort=R", "random-source:", "reverse=r", "sort:",
                        "stable=s", "buffer-size=S:", "field-separator=t:", "temporary-directory=T:",
                        "unique=u", "version-sort=V", "zero-terminated=z", "batch-size:", "radixsort",
                        "mergesort", "qsort", "heapsort", "mmap", "help", "version")
                        .guard(Effect.WRITE, "o", "T").guard(Effect.EXEC, "--compress-program")
                        .guard(Effect.LIST, "--files0-from").paths(PathValue.ONE, "--files0-from", "--random-source"),
                impl("busybox", "nrgMcszbdfiuVk:t:o:T:S:", true, true)
                        .guard(Effect.WRITE, "o", "T"));
        put(tables, "uniq",
                impl("GNU", "0123456789cdDf:is:uw:z", true, true, "all-repeated=D::", "count=c", "repeated=d",
                        "group::", "ignore-case=i", "skip-fields=f:", "skip-chars=s:", "unique=u",
                        "check-chars=w:", "zero-terminated=z", "help", "version")
                        .operands("a second operand (the output file)", Effect.WRITE,
                                GetoptTable.operandsAfter(1, Effect.WRITE)),
                impl("BSD/macOS", "0123456789cdDif:s:u", false, true, "all-repeated=D::", "count=c",
                        "repeated=d", "ignore-case=i", "skip-fields=f:", "skip-chars=s:", "unique=u")
                        .operands("a second operand (the output file)", Effect.WRITE,
                                GetoptTable.operandsAfter(1, Effect.WRITE)),
                impl("busybox", "cduDizf:s:w:", true, true)
                        .operands("a second operand (the output file)", Effect.WRITE,
                                GetoptTable.operandsAfter(1, Effect.WRITE)));
        put(tables, "split",
                impl("GNU", "0123456789C:a:b:del:n:t:ux", true, true, "suffix-length=a:", "additional-suffix:",
                        "bytes=b:", "line-bytes=C:", "lines=l:", "number=n:", "numeric-suffixes=d::",
                        "hex-suffixes=x::", "elide-empty-files=e", "unbuffered=u", "separator=t:", "filter:",
                        "verbose", "help", "version")
                        .guard(Effect.EXEC, "--filter")
                        .operands("any use (it writes its pieces)", Effect.WRITE, GetoptTable.always(Effect.WRITE)),
                impl("BSD/macOS", "0123456789a:b:dl:n:p:", false, true)
                        .operands("any use (it writes its pieces)", Effect.WRITE, GetoptTable.always(Effect.WRITE)),
                impl("busybox", "l:b:a:", true, true)
                        .operands("any use (it writes its pieces)", Effect.WRITE, GetoptTable.always(Effect.WRITE)));
        put(tables, "base64",
                impl("GNU", "diw:", true, true, "decode=d", "ignore-garbage=i", "wrap=w:", "help", "version")
                        .maxOperands(1),
                impl("macOS", "b:Ddhi:o:", false, true, "break=b:", "decode=d", "help=h", "input=i:",
                        "output=o:").guard(Effect.WRITE, "o").paths(PathValue.ONE, "i").maxOperands(1),
                impl("busybox", "dw:", true, true).maxOperands(1));
        put(tables, "man",
                impl("man-db", "C:dDfkKlwWcR:L:m:M:e:iIauP:r:7E:p:tT::H::X::Z?hV", true, true,
                        "config-file=C:", "debug=d", "default=D", "warnings::", "whatis=f", "apropos=k",
                        "global-apropos=K", "local-file=l", "where=w", "path=w", "location=w",
                        "where-cat=W", "location-cat=W", "catman=c", "recode=R:", "locale=L:", "systems=m:",
                        "manpath=M:", "extension=e:", "ignore-case=i", "match-case=I", "regex", "wildcard",
                        "names-only", "all=a", "update=u", "no-subpages", "pager=P:", "prompt=r:", "ascii=7",
                        "encoding=E:", "no-hyphenation", "nh", "no-justification", "nj", "preprocessor=p:",
                        "troff=t", "troff-device=T::", "html=H::", "gxditview=X::", "ditroff=Z", "help=?",
                        "usage", "version=V", "sections=S:", "S")
                        .guard(Effect.EXEC, "P", "H", "X", "C").paths(PathValue.list(":"), "M")
                        .guardSaying(Effect.WRITE, "updates the manual page index", "u")
                        .guardSaying(Effect.RECURSE, "reads every manual page on the system", "K")
                        .guardSaying(Effect.WRITE, "rewrites the cached pages", "c"),
                impl("mandoc (macOS, BSD)", "aC:cfhI:iK:klM:m:O:S:s:T:VW:w", false, true)
                        .paths(PathValue.list(":"), "M", "m").paths(PathValue.ONE, "C"));
        put(tables, "less",
                impl("less", "?aAb:BcdD:eEfFgGh:iIj:Jk:KLmMnNo:O:p:P:qQrRsSt:T:uUVwWx:Xy:z:\":~#:", false, false,
                        "help=?", "search-skip-screen=a", "SEARCH-SKIP-SCREEN=A", "buffers=b:",
                        "auto-buffers=B", "clear-screen=c", "dumb=d", "color=D:", "quit-at-eof=e",
                        "QUIT-AT-EOF=E", "force=f", "quit-if-one-screen=F", "hilite-search=g",
                        "HILITE-SEARCH=G", "max-back-scroll=h:", "ignore-case=i", "IGNORE-CASE=I",
                        "jump-target=j:", "status-column=J", "lesskey-file=k:", "lesskey-src:",
                        "quit-on-intr=K", "no-lessopen=L", "long-prompt=m", "LONG-PROMPT=M",
                        "line-numbers=n", "LINE-NUMBERS=N", "log-file=o:", "LOG-FILE=O:", "pattern=p:",
                        "prompt=P:", "quiet=q", "QUIET=Q", "silent=q", "SILENT=Q", "raw-control-chars=r",
                        "RAW-CONTROL-CHARS=R", "squeeze-blank-lines=s", "chop-long-lines=S", "tag=t:",
                        "tag-file=T:", "underline-special=u", "UNDERLINE-SPECIAL=U", "version=V",
                        "hilite-unread=w", "HILITE-UNREAD=W", "tabs=x:", "no-init=X", "max-forw-scroll=y:",
                        "window=z:", "quotes=\":", "tilde=~", "shift=#:", "file-size", "follow-name",
                        "incsearch", "line-num-width:", "mouse", "no-keypad", "no-histdups", "rscroll:",
                        "save-marks", "status-col-width:", "use-backslash", "use-color", "wheel-lines:")
                        .guard(Effect.WRITE, "o", "O").guard(Effect.EXEC, "k", "--lesskey-src")
                        .paths(PathValue.ONE, "T")
                        .operands("+COMMAND (a command less runs first, a shell escape among them)", Effect.EXEC,
                                ToolRules::initialCommand));
        put(tables, "more",
                impl("util-linux", "dflcpsun:0123456789", true, true, "silent=d", "logical=l", "no-pause=f",
                        "print-over=p", "clean-print=c", "squeeze=s", "plain=u", "lines=n:", "help", "version"),
                impl("BSD/macOS", "deEFGiIJKLmMnNqQrRsSuUVwWXx:z:", false, false)
                        .operands("+COMMAND (macOS's more is less, which runs it first, a shell escape among them)",
                                Effect.EXEC, ToolRules::initialCommand));
        put(tables, "diff",
                impl("GNU", "0123456789abBcC:dD:eEfF:hHiI:lL:nNpPqrsS:tTuU:vwW:x:X:yZ", true, true,
                        "normal", "brief=q", "report-identical-files=s", "context=C::", "unified=U::", "ed=e",
                        "rcs=n", "side-by-side=y", "width=W:", "left-column", "suppress-common-lines",
                        "show-c-function=p", "show-function-line=F:", "label=L:", "expand-tabs=t",
                        "initial-tab=T", "tabsize:", "suppress-blank-empty", "paginate=l", "recursive=r",
                        "no-dereference", "new-file=N", "unidirectional-new-file=P", "ignore-file-name-case",
                        "no-ignore-file-name-case", "exclude=x:", "exclude-from=X:", "starting-file=S:",
                        "from-file:", "to-file:", "ignore-case=i", "ignore-tab-expansion=E",
                        "ignore-trailing-space=Z", "ignore-space-change=b", "ignore-all-space=w",
                        "ignore-blank-lines=B", "ignore-matching-lines=I:", "text=a", "strip-trailing-cr",
                        "ifdef=D:", "old-group-format:", "new-group-format:", "unchanged-group-format:",
                        "changed-group-format:", "line-format:", "old-line-format:", "new-line-format:",
                        "unchanged-line-format:", "minimal=d", "horizon-lines:", "speed-large-files",
                        "color::", "palette:", "help", "version=v")
                        .paths(PathValue.ONE, "X", "--from-file", "--to-file")
                        .guardSaying(Effect.EXEC, "runs pr", "l")
                        .operands("a directory operand without --no-dereference (it reads the files there "
                                + "through their links)", Effect.RECURSE, ToolRules::diffFollowsLinks)
                        .recursiveWith("r"),
                impl("BSD/macOS", "abC:cdD:efF:HhI:iL:lNnPpqrS:sTtU:uwX:x:y", false, true,
                        "brief=q", "recursive=r", "unified=U:", "context=C:", "ignore-case=i", "text=a",
                        "label=L:", "exclude=x:", "exclude-from=X:", "new-file=N", "strip-trailing-cr",
                        "side-by-side=y", "width=W:", "no-dereference", "ignore-all-space=w",
                        "ignore-blank-lines=B", "ignore-matching-lines=I:", "minimal=d", "ed=e",
                        "starting-file=S:", "speed-large-files", "changed-group-format:", "color::",
                        "help", "normal", "report-identical-files=s", "expand-tabs=t", "initial-tab=T",
                        "show-c-function=p", "show-function-line=F:", "tabsize:", "ignore-space-change=b",
                        "suppress-common-lines", "ifdef=D:", "paginate=l")
                        .paths(PathValue.ONE, "X")
                        .guardSaying(Effect.EXEC, "runs pr", "l")
                        .operands("a directory operand without --no-dereference (it reads the files there "
                                + "through their links)", Effect.RECURSE, ToolRules::diffFollowsLinks)
                        .recursiveWith("r"));
        put(tables, "cmp",
                impl("GNU", "bci:ln:sv", true, true, "print-bytes=b", "print-chars=c", "ignore-initial=i:",
                        "verbose=l", "bytes=n:", "silent=s", "quiet=s", "help", "version=v"),
                impl("BSD/macOS", "bhi:ln:sxz", false, true));
        put(tables, "comm",
                impl("GNU", "123z", true, true, "check-order", "nocheck-order", "output-delimiter:", "total",
                        "zero-terminated=z", "help", "version"),
                impl("BSD/macOS", "123fi", false, true));
        put(tables, "nl",
                impl("GNU", "b:d:f:h:i:l:n:ps:v:w:", true, true, "body-numbering=b:", "section-delimiter=d:",
                        "footer-numbering=f:", "header-numbering=h:", "line-increment=i:",
                        "join-blank-lines=l:", "number-format=n:", "no-renumber=p", "number-separator=s:",
                        "starting-line-number=v:", "number-width=w:", "help", "version"),
                impl("BSD/macOS", "b:d:f:h:i:l:n:ps:v:w:", false, true));
        put(tables, "od",
                impl("GNU", "A:aBbcDdeFfHhIij:LlN:OoS::st:vw::Xx", true, true, "address-radix=A:", "endian:",
                        "skip-bytes=j:", "read-bytes=N:", "format=t:", "output-duplicates=v", "strings=S::",
                        "traditional", "width=w::", "help", "version"),
                impl("BSD/macOS", "A:aBbcDdeFfHhIij:LlN:Oost:vXx", false, true));
        put(tables, "hexdump",
                impl("util-linux", "bcCdoxL::e:f:n:s:vhV", true, true, "one-byte-octal=b", "one-byte-char=c",
                        "canonical=C", "two-bytes-decimal=d", "two-bytes-octal=o", "two-bytes-hex=x",
                        "color=L::", "format=e:", "format-file=f:", "length=n:", "skip=s:", "no-squeezing=v",
                        "help=h", "version=V").paths(PathValue.ONE, "f"),
                impl("BSD/macOS", "bcCde:f:n:os:vx", false, true).paths(PathValue.ONE, "f"));
        put(tables, "column",
                impl("util-linux", "tn:O:N:l:E:dehH:R:T:W:LJri:p:c:o:s:xC:S:V", true, true, "table=t",
                        "table-name=n:", "table-order=O:", "table-columns=N:", "table-columns-limit=l:",
                        "table-noextreme=E:", "table-noheadings=d", "table-header-repeat=e",
                        "table-hide=H:", "table-right=R:", "table-truncate=T:", "table-wrap=W:",
                        "keep-empty-lines=L", "json=J", "tree=r:", "tree-id=i:", "tree-parent=p:",
                        "output-width=c:", "output-separator=o:", "separator=s:", "fillrows=x",
                        "help=h", "version=V"),
                impl("BSD/macOS", "c:s:tx", false, true));
        put(tables, "cut",
                impl("GNU", "b:c:d:f:nsz", true, true, "bytes=b:", "characters=c:", "delimiter=d:",
                        "fields=f:", "complement", "only-delimited=s", "output-delimiter:",
                        "zero-terminated=z", "help", "version"),
                impl("BSD/macOS", "b:c:d:f:nsw", false, true),
                impl("busybox", "b:c:d:f:nsO:", true, true));
        put(tables, "paste",
                impl("GNU", "d:sz", true, true, "delimiters=d:", "serial=s", "zero-terminated=z", "help",
                        "version"),
                impl("BSD/macOS, busybox", "d:s", false, true));
        put(tables, "tr",
                impl("GNU", "cCdst", true, true, "complement=c", "delete=d", "squeeze-repeats=s",
                        "truncate-set1=t", "help", "version"),
                impl("BSD/macOS, busybox", "Ccdsu", false, true));
        put(tables, "grep",
                impl("GNU", "0123456789A:B:C:D:EFGHIPTUVX:abcd:e:f:hiLlm:noqRrsuvwxyZz", true, true,
                        "extended-regexp=E", "fixed-strings=F", "basic-regexp=G", "perl-regexp=P",
                        "regexp=e:", "file=f:", "ignore-case=i", "no-ignore-case", "word-regexp=w",
                        "line-regexp=x", "null-data=z", "no-messages=s", "invert-match=v", "version=V", "help",
                        "max-count=m:", "byte-offset=b", "line-number=n", "line-buffered", "with-filename=H",
                        "no-filename=h", "label:", "only-matching=o", "quiet=q", "silent=q", "binary-files:",
                        "text=a", "directories=d:", "devices=D:", "recursive=r", "dereference-recursive=R",
                        "include:", "exclude:", "exclude-from:", "exclude-dir:", "files-without-match=L",
                        "files-with-matches=l", "count=c", "initial-tab=T", "null=Z", "before-context=B:",
                        "after-context=A:", "context=C:", "group-separator:", "no-group-separator",
                        "color::", "colour::", "binary=U")
                        .guardWhen(Effect.FOLLOW, "D", "when its action is not skip", v -> !v.equals("skip"))
                        .paths(PathValue.ONE, "f", "--exclude-from")
                        .guardSaying(Effect.RECURSE, ToolRules.FOLLOWS_LINKS, "R")
                        .recursiveWith("r", "R", "d"),
                impl("BSD/macOS", "0123456789A:B:C:D:EFGHIJMLOSRUVZabcd:e:f:hilm:nopqrsuvwxyz", false, true,
                        "after-context=A:", "before-context=B:", "context=C:", "devices=D:",
                        "extended-regexp=E", "fixed-strings=F", "basic-regexp=G", "bz2decompress=J",
                        "decompress=Z", "files-without-match=L", "lzma=M", "recursive=r", "text=a",
                        "byte-offset=b", "count=c", "directories=d:", "regexp=e:", "file=f:", "no-filename=h",
                        "with-filename=H", "ignore-case=i", "files-with-matches=l", "max-count=m:",
                        "line-number=n", "only-matching=o", "quiet=q", "silent=q", "no-messages=s",
                        "invert-match=v", "word-regexp=w", "line-regexp=x", "null=z", "null-data",
                        "binary-files:", "color::", "colour::", "exclude:", "exclude-dir:", "include:",
                        "include-dir:", "label:", "line-buffered", "help", "version=V")
                        .guardSaying(Effect.EXEC, "runs an external decompressor", "J")
                        .guardSaying(Effect.EXEC, "runs an external decompressor", "M")
                        .guardSaying(Effect.EXEC, "runs an external decompressor", "Z")
                        .guardWhen(Effect.FOLLOW, "D", "when its action is not skip", v -> !v.equals("skip"))
                        .paths(PathValue.ONE, "f")
                        .operands("-r, -R without -D skip (" + ToolRules.FIFOS_BELOW + ")", Effect.FOLLOW,
                                ToolRules.readsSpecialFilesBelow("r", "R"), "r", "R")
                        .recursiveWith("r", "R", "d"),
                impl("busybox", "HhnlLoqvsrRiwFExm:A:B:C:e:f:z", true, true).paths(PathValue.ONE, "f")
                        .guardSaying(Effect.RECURSE, ToolRules.FOLLOWS_LINKS, "r")
                        .guardSaying(Effect.RECURSE, ToolRules.FOLLOWS_LINKS, "R")
                        .recursiveWith("r", "R"));
        put(tables, "rg",
                impl("ripgrep", "A:B:C:E:FHIKLM:NPSTUVabce:f:g:hij:lm:nopqr:st:uvwxz0.", true, true,
                        "after-context=A:", "before-context=B:", "context=C:", "encoding=E:",
                        "fixed-strings=F", "with-filename=H", "no-filename=I", "files-without-match",
                        "files-with-matches=l", "max-columns=M:", "no-line-number=N", "pcre2=P",
                        "smart-case=S", "type-not=T:", "multiline=U", "version=V", "text=a", "byte-offset=b",
                        "count=c", "regexp=e:", "file=f:", "glob=g:", "help=h", "ignore-case=i", "threads=j:",
                        "max-count=m:", "line-number=n", "only-matching=o", "pretty=p", "quiet=q",
                        "replace=r:", "case-sensitive=s", "type=t:", "unrestricted=u", "invert-match=v",
                        "word-regexp=w", "line-regexp=x", "search-zip=z", "null=0", "hidden=.",
                        "pre:", "pre-glob:", "hostname-bin:", "iglob:", "ignore-file:", "color:", "colors:",
                        "column", "no-column", "heading", "no-heading", "files", "json", "no-ignore",
                        "no-ignore-vcs", "no-ignore-parent", "no-ignore-dot", "no-messages", "sort:",
                        "sortr:", "stats", "trim", "vimgrep", "max-depth:", "max-filesize:", "follow=L",
                        "type-list", "passthru", "no-config", "one-file-system", "binary", "crlf",
                        "null-data", "fixed-strings=F", "ignore-case=i", "line-buffered", "block-buffered",
                        "field-match-separator:", "field-context-separator:", "context-separator:",
                        "no-require-git", "count-matches", "debug", "trace", "engine:", "path-separator:")
                        .guard(Effect.EXEC, "--pre", "--hostname-bin")
                        .guardSaying(Effect.EXEC, "runs an external decompressor", "z")
                        .paths(PathValue.ONE, "f", "--ignore-file")
                        .guardSaying(Effect.RECURSE, ToolRules.FOLLOWS_LINKS, "L")
                        .recursive());
        put(tables, "jq",
                impl("jq", "nrjascCMSeRf:L:hV0", true, true, "null-input=n", "raw-input=R", "slurp=s",
                        "compact-output=c", "raw-output=r", "raw-output0", "join-output=j", "ascii-output=a",
                        "sort-keys=S", "color-output=C", "monochrome-output=M", "tab", "indent:", "unbuffered",
                        "stream", "stream-errors", "seq", "from-file=f:", "exit-status=e", "arg:", "argjson:",
                        "slurpfile:", "rawfile:", "args", "jsonargs", "help=h", "version=V",
                        "build-configuration", "nul-output=0")
                        .paths(PathValue.ONE, "f", "L")
                        .guardSaying(Effect.LIST, "reads its program from a file, which aii does not see", "f")
                        .operands("a program naming env or $ENV", Effect.ENVIRON, ToolRules::showsEnvironment));
        put(tables, "gzip",
                impl("GNU gzip", "cdfhklLnNqrS:tvV123456789", true, true, "stdout=c", "to-stdout=c",
                        "decompress=d", "uncompress=d", "force=f", "help=h", "keep=k", "list=l", "license=L",
                        "no-name=n", "name=N", "quiet=q", "silent=q", "recursive=r", "rsyncable",
                        "suffix=S:", "synchronous", "test=t", "verbose=v", "version=V", "fast=1", "best=9")
                        .guardSaying(Effect.RECURSE, ToolRules.FOLLOWS_LINKS, "r")
                        .operands("an operand without -c, -l or -t (it replaces the file)", Effect.WRITE,
                                ToolRules::replacesFiles));
        tables.put("gunzip", tables.get("gzip"));
    }
}
