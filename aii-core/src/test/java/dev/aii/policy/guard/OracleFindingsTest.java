package dev.aii.policy.guard;

import dev.aii.policy.Environment;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FakeDisk;
import dev.aii.policy.FakeFiles;
import dev.aii.policy.RuleSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every class of hole the syscall oracle (and a red-team pass over forms no
 * one listed) found, as fixed cases: each asks now, next to the harmless
 * forms beside it that must still run. Under a bare rule for every program,
 * so that nothing but a guard makes a command ask.
 */
class OracleFindingsTest {

    private static final RuleSet RULES = FakeFiles.rules("git", "file", "grep", "rgrep", "gzip", "diff", "man", "ps",
            "xxd", "jq", "tail", "tar", "sort", "date", "du", "base64", "ls", "head", "cat", "wc", "less");

    private static final ExecPolicy AT_HOME = ExecPolicy.of(RULES, FakeDisk.environment());

    /** In {@code /home/u/src}, below the work tree's top {@code /home/u}. */
    private static final ExecPolicy IN_SRC = ExecPolicy.of(RULES,
            new Environment("/usr/bin:/bin", FakeDisk.HOME + "/src", new FakeDisk()));

    private static final String AT_HOME_TABLE = """
            # git reads options after operands (no POSIXLY_CORRECT): shortlog X --output=F wrote F
            ask git shortlog x --output=y
            ask git log HEAD --output=y
            run git show HEAD -- --output=y --ext-diff
            # git config, grep and remote stop at their first operand: config a.b --worktree sets a.b
            ask git config a.b --worktree
            run git config --get a.b
            run git config a.b
            run git config --worktree --get a.b
            # unmodelled subcommands ask: a future git's reflog drop, write, or a word no table knows
            ask git reflog drop
            ask git reflog write x y z
            ask git reflog main
            ask git config foo
            run git reflog
            run git reflog show main
            run git reflog HEAD@{1}
            run git reflog exists HEAD
            run git config list
            run git config get a.b
            # git -h is git help, which starts a manual viewer
            ask git -h
            ask git -h log
            run git status -h
            # submodules: their own configuration names drivers aii cannot list
            ask git status --ignore-submodules=none
            ask git status --ignore-submodules
            ask git diff --ignore-submodules=dirty
            ask git diff --submodule=diff
            ask git ls-files --recurse-submodules
            ask git grep --recurse-submodules x
            ask git branch --recurse-submodules
            run git status --ignore-submodules=all
            run git diff --submodule=log
            run git diff --submodule
            # git -C moves the base every relative path is read from
            ask git -C src diff --no-index main.c ../fifo
            ask git -C src show ../term
            run git -C src diff --no-index main.c ../README.md
            # path values must exist, every element of a list, from every base
            ask file -m README.md:term README.md
            ask file -m README.md:/dev/pts/3 README.md
            ask file -m nope README.md
            ask file -m : README.md
            ask file -m README.md::/dev/zero README.md
            run file -m README.md README.md
            ask file -m . README.md
            ask file --magic-file=src README.md
            # a path value is opened as the option is met, before a usage error stops the program (GNU du -X)
            ask du . -f -X/dev/zero
            ask du --bogus --exclude-from=/dev/zero .
            ask grep --bogus -f /dev/zero x f
            run file -m README.md:notes.md README.md
            ask git blame --ignore-revs-file nope f
            run git blame --ignore-revs-file README.md f
            ask sort --random-source=/dev/zero f
            ask sort --random-source=nope f
            run sort --random-source=README.md f
            ask date -f nope
            ask date -r term
            run date -r README.md
            ask du --exclude-from=fifo .
            ask du -X nope .
            ask tar -tf nope
            ask tar -tf a.tar -C term
            run tar -tf a.tar
            ask grep -f term x f
            # file -p sets the files' times back
            ask file -p README.md
            # walks that follow links or read FIFOs: GNU grep -R, gzip -r, rgrep (grep -r), BSD grep -r
            ask grep -R x src
            ask grep -r x src
            ask rgrep x src
            ask rgrep x /proc
            ask gzip -rc src
            run grep -r -D skip x src
            run grep -rn --devices=skip x src
            # GNU diff reads a directory's files through their links (diff -N nope dir printed them)
            ask diff -N nope src
            ask diff -P --side nope /home/u
            ask diff README.md src
            ask diff -r src /tmp
            run diff -r --no-dereference src /tmp
            run diff README.md notes.md
            # diff -l runs pr; man -u runs mandb, -K reads every page, -c rewrites the cache
            ask diff -l README.md notes.md
            ask diff --paginate README.md notes.md
            ask man -u
            ask man --update ls
            ask man -K x
            ask man -c ls
            run man ls
            run man -f ls
            # procps has no UNIX -x: ps -x -e is read as BSD x and e, which shows environments
            ask ps -x -e
            ask ps -m -x -e -wf
            ask ps -auxe
            ask ps -e -u nosuchuser
            run ps -aux
            run ps -ef
            run ps -eo pid,comm
            run ps aux
            # xxd reads options up to its first operand, and -capitalize is a flag
            ask xxd -capitalize README.md -e
            ask xxd README.md -e
            ask xxd -cols 8 README.md out
            run xxd -capitalize README.md
            run xxd -c 8 README.md
            run xxd -c8 -g 2 README.md
            # jq's env and $ENV show the environment; a program file aii cannot see
            ask jq env
            ask jq -n env
            ask jq $ENV.HOME data.txt
            ask jq -f data.txt data.txt
            run jq .env data.txt
            run jq .environment data.txt
            run jq -r .name data.txt
            # GNU tar -d compares the files an archive names
            ask tar -d -f a.tar
            ask tar --compare -f a.tar
            # tail reads +1f forms only where tail does: a file named -f after --
            run tail -- -f
            run tail -n 5 -- -f
            ask tail -1f log.txt
            ask tail -f log.txt
            # less acts while it reads its options, and runs a +COMMAND first (! is a shell)
            ask less -O out README.md
            ask less +!sh README.md
            ask less README.md +G
            run less -N README.md
            # a red-team pass: signatures run gpg; BSD grep -d recurse is -r
            ask git log --show-signature
            ask git log --format=%G?
            ask git show --pretty=format:%GK
            ask git branch --format=%(signature)
            run git log --format=%H
            run git branch --format=%(refname)
            ask grep -d recurse x src
            run grep -d skip x src
            ask git --end-of-options log
            # git describe --dirty writes the index, --broken runs git again
            ask git describe --dirty
            ask git describe --broken
            run git describe --tags --long
            """;

    private static final String IN_SRC_TABLE = """
            # git resolves grep -f, blame --ignore-revs-file, ls-files -X from the top: /home/u/fifo is a FIFO
            ask git grep -f fifo x
            ask git blame --ignore-revs-file fifo main.c
            ask git ls-files -X fifo
            ask git ls-files --exclude-from=fifo
            ask git ls-files --exclude-per-directory=fifo
            run git grep -f main.c x
            run git ls-files -X main.c
            # file -m reads its list from the current directory only
            run file -m fifo main.c
            """;

    static Stream<Arguments> atHome() {
        return CaseTable.rows(AT_HOME_TABLE);
    }

    static Stream<Arguments> inSrc() {
        return CaseTable.rows(IN_SRC_TABLE);
    }

    @ParameterizedTest
    @MethodSource("atHome")
    void whatTheOracleFoundAsksAndTheFormsBesideItRun(boolean asks, List<String> argv) {
        CaseTable.check(AT_HOME, asks, argv);
    }

    @ParameterizedTest
    @MethodSource("inSrc")
    void gitValuesReadFromTheTopOfTheWorkTreeAreCheckedFromThere(boolean asks, List<String> argv) {
        CaseTable.check(IN_SRC, asks, argv);
    }
}
