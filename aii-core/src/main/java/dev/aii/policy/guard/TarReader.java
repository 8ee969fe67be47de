package dev.aii.policy.guard;

import static dev.aii.policy.guard.Implementation.impl;

import java.util.ArrayList;
import java.util.List;

/**
 * The guard table of {@code tar}: GNU tar, bsdtar (libarchive, macOS's tar)
 * and busybox. Creating, extracting, appending and updating write files;
 * compression programs, {@code --to-command}, checkpoint actions, volume
 * scripts and remote archives ({@code -f host:file}, run through rsh/ssh)
 * run programs. The traditional first argument without a dash
 * ({@code tar xvf a.tar}) is read as its options, each value-taking letter
 * taking the next argument in turn.
 */
final class TarReader implements ProgramReader {

    private static final String[] GNU_LONG = {
        "catenate=A", "concatenate=A", "create=c", "delete", "diff=d", "compare=d", "append=r", "test-label",
        "list=t", "update=u", "extract=x", "get=x", "check-device", "listed-incremental=g:", "incremental=G",
        "hole-detection:", "ignore-failed-read", "level:", "no-check-device", "no-seek", "seek=n",
        "occurrence::", "sparse-version:", "sparse=S", "add-file:", "directory=C:", "exclude:",
        "exclude-backups", "exclude-caches", "exclude-caches-all", "exclude-caches-under", "exclude-ignore:",
        "exclude-ignore-recursive:", "exclude-tag:", "exclude-tag-all:", "exclude-tag-under:", "exclude-vcs",
        "exclude-vcs-ignores", "no-null", "no-recursion", "no-unquote", "no-verbatim-files-from", "null",
        "verbatim-files-from", "recursion", "files-from=T:", "unquote", "exclude-from=X:", "anchored",
        "ignore-case", "no-anchored", "no-ignore-case", "no-wildcards", "no-wildcards-match-slash", "wildcards",
        "wildcards-match-slash", "keep-directory-symlink", "keep-newer-files", "keep-old-files=k",
        "no-overwrite-dir", "one-top-level::", "overwrite", "overwrite-dir", "recursive-unlink", "remove-files",
        "skip-old-files", "unlink-first=U", "verify=W", "ignore-command-error", "no-ignore-command-error",
        "to-stdout=O", "to-command:", "atime-preserve::", "clamp-mtime", "delay-directory-restore", "group:",
        "group-map:", "mode:", "mtime:", "touch=m", "no-delay-directory-restore", "no-same-owner",
        "no-same-permissions", "numeric-owner", "owner:", "owner-map:", "preserve-permissions=p",
        "same-permissions=p", "same-owner", "sort:", "preserve-order=s", "same-order=s", "preserve", "acls",
        "no-acls", "no-selinux", "no-xattrs", "selinux", "xattrs", "xattrs-exclude:", "xattrs-include:",
        "force-local", "file=f:", "info-script=F:", "new-volume-script=F:", "tape-length=L:",
        "multi-volume=M", "rmt-command:", "rsh-command:", "volno-file:", "blocking-factor=b:",
        "read-full-records=B", "ignore-zeros=i", "record-size:", "format=H:", "old-archive", "portability",
        "pax-option:", "posix", "label=V:", "auto-compress=a", "use-compress-program=I:", "bzip2=j", "xz=J",
        "lzip", "lzma", "lzop", "no-auto-compress", "zstd", "gzip=z", "gunzip=z", "ungzip=z", "compress=Z",
        "uncompress=Z", "backup::", "hard-dereference", "dereference=h", "starting-file=K:", "newer-mtime:",
        "newer=N:", "after-date=N:", "one-file-system", "absolute-names=P", "suffix:", "strip-components:",
        "transform:", "xform:", "checkpoint::", "checkpoint-action:", "full-time", "index-file:",
        "check-links=l", "no-quote-chars:", "quote-chars:", "quoting-style:", "block-number=R",
        "show-defaults", "show-omitted-dirs", "show-snapshot-field-ranges", "show-transformed-names",
        "totals::", "utc", "verbose=v", "warning:", "interactive=w", "confirmation=w", "help=?", "restrict",
        "usage", "version"
    };

    private static final String[] BSD_LONG = {
        "create=c", "extract=x", "list=t", "append=r", "update=u", "file=f:", "directory=C:", "cd=C:",
        "exclude:", "include:", "files-from=T:", "exclude-from=X:", "gzip=z", "gunzip=z", "bzip2=j", "xz=J",
        "lzma", "lzip", "lzop", "zstd", "lz4", "compress=Z", "uncompress=Z", "auto-compress=a",
        "use-compress-program:", "format:", "options:", "verbose=v", "to-stdout=O", "keep-old-files=k",
        "keep-newer-files", "unlink=U", "unlink-first=U", "no-recursion=n", "dereference=L", "numeric-owner",
        "preserve-permissions=p", "same-permissions=p", "absolute-paths=P", "strip-components:",
        "newer:", "newer-mtime:", "newer-than:", "newer-mtime-than:", "one-file-system", "null",
        "fast-read=q", "owner:", "uid:", "gid:", "gname:", "uname:", "chroot", "exclude-vcs", "passphrase:",
        "disable-copyfile", "mac-metadata", "no-mac-metadata", "acls", "no-acls", "xattrs", "no-xattrs",
        "fflags", "no-fflags", "same-owner", "no-same-owner", "no-same-permissions", "totals",
        "hfsCompression", "nopreserveHFSCompression", "ignore-zeros", "read-full-blocks=B", "block-size=b:",
        "insecure=P", "modification-time=m", "safe-writes", "no-safe-writes", "clear-nochange-fflags",
        "check-links", "interactive=w", "confirmation=w", "help", "version"
    };

    private final GetoptTable table = new GetoptTable("tar", List.of(
            impl("GNU", "01234567ABC:F:GJK:L:MN:OPRST:UV:WX:Zab:cdf:g:hI:ijklmnopqrstuvwxz?", true, true, GNU_LONG)
                    .guard(Effect.WRITE, "c", "x", "r", "u", "A", "--delete", "--remove-files", "g",
                            "--index-file", "--volno-file")
                    .guard(Effect.EXEC, "I", "--to-command", "--checkpoint-action", "--rsh-command",
                            "--rmt-command", "F")
                    .guard(Effect.LIST, "T")
                    .guardSaying(Effect.LIST, "reads the files an archive names, to compare them", "d")
                    .paths(PathValue.ONE, "f", "C", "T", "X")
                    .operands("-f HOST:FILE (a remote archive, without --force-local)", Effect.EXEC,
                            TarReader::remoteArchive),
            impl("bsdtar (libarchive, macOS)", "Bb:C:cf:HhI:JjkLlmnOoPpqrSs:T:tUuvW:wX:xyZz", false, true, BSD_LONG)
                    .guard(Effect.WRITE, "c", "x", "r", "u")
                    .guard(Effect.EXEC, "--use-compress-program")
                    .guard(Effect.LIST, "T", "I")
                    .paths(PathValue.ONE, "f", "C", "T", "I", "X"),
            impl("busybox", "cxtzJjaOvhmokf:C:T:X:Z", true, true, "to-command:", "exclude:", "overwrite",
                    "strip-components:", "no-recursion", "numeric-owner", "no-same-owner",
                    "no-same-permissions", "directory=C:", "file=f:", "files-from=T:", "exclude-from=X:")
                    .guard(Effect.WRITE, "c", "x")
                    .guard(Effect.EXEC, "--to-command")
                    .guard(Effect.LIST, "T")
                    .paths(PathValue.ONE, "f", "C", "T", "X")));

    /** Letters that take a value in a traditional first argument (GNU's set, which holds the others'). */
    private static final String KEY_VALUES = "bCfFgIKLNTVX";

    @Override
    public void read(List<String> arguments, GuardHits out) {
        if (arguments.isEmpty() || arguments.get(0).startsWith("-")) {
            table.read(arguments, out);
            return;
        }
        // tar xvf a.tar dir: the key's letters become options, values taken from the arguments after it.
        String key = arguments.get(0);
        List<String> expanded = new ArrayList<>();
        List<Integer> from = new ArrayList<>();
        int next = 1;
        for (int p = 0; p < key.length(); p++) {
            expanded.add("-" + key.charAt(p));
            from.add(0);
            if (KEY_VALUES.indexOf(key.charAt(p)) >= 0 && next < arguments.size()) {
                expanded.add(arguments.get(next));
                from.add(next++);
            }
        }
        for (int i = next; i < arguments.size(); i++) {
            expanded.add(arguments.get(i));
            from.add(i);
        }
        GuardHits inner = new GuardHits(out.program());
        table.read(expanded, inner);
        out.addAll(inner, from);
    }

    /** GNU tar reads {@code -f host:file} (a colon before any slash) as a remote archive reached through rsh. */
    private static void remoteArchive(Getopt.Parsed parsed, List<String> arguments, GuardHits out) {
        if (parsed.has("--force-local")) {
            return;
        }
        for (Getopt.Occurrence o : parsed.options()) {
            if (o.keys().contains("f") && o.value().isPresent()) {
                String v = o.value().get();
                int colon = v.indexOf(':');
                int slash = v.indexOf('/');
                if (colon >= 0 && (slash < 0 || colon < slash)) {
                    out.effect(o.index(), Effect.EXEC);
                }
            }
        }
    }

    @Override
    public Vocabulary vocabulary() {
        return table.vocabulary();
    }

    @Override
    public List<TableRow> rows() {
        return table.rows();
    }
}
