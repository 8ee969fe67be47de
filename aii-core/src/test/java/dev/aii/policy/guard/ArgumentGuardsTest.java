package dev.aii.policy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import dev.aii.policy.FakeDisk;
import dev.aii.policy.FakeFiles;
import dev.aii.policy.RuleSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The adversarial table: every guarded form in the spellings a getopt reader
 * accepts, path tricks, and next to them the benign forms that must still
 * run unasked. Each harmful form's effect was tried on a real system
 * (GNU coreutils 9.1, git 2.39, GNU tar 1.34, busybox 1.35, bsdtar) in a
 * scratch directory. The rules are the defaults plus a bare rule for every
 * other program, so nothing but a guard can make a command ask.
 */
class ArgumentGuardsTest {

    static final String CLOCK = "this form of date can set the system clock";
    static final String COMPILE = "this form of file can write a compiled magic file";
    static final String DECOMPRESS = "this form of file runs an external decompressor";

    private static final RuleSet RULES = FakeFiles.rules("ls", "pwd", "cat", "head", "tail", "wc", "date",
            "whoami", "uname", "df", "du", "stat", "file", "which", "ps", "uptime", "sw_vers", "git", "sort", "tar",
            "xxd", "find", "uniq", "split", "man", "base64", "less", "more", "diff", "cmp", "comm", "nl", "od",
            "hexdump", "jq", "column", "cut", "paste", "tr", "grep", "rg", "gzip", "gunzip", "printf", "bsdtar",
            "gtail", "rgrep");

    private static final ExecPolicy POLICY = ExecPolicy.of(RULES, FakeDisk.environment());

    /** {@code ask <command>} or {@code run <command>}; arguments split on spaces. */
    private static final String TABLE = """
            # the built-in defaults, benign
            run ls -la
            run ls -la /tmp
            run ls --color=auto -R src
            run ls -lh --sort=size --time-style=long-iso
            run cat README.md
            run cat -n README.md /etc/passwd
            run cat /dev/null
            run cat nul
            run cat /proc/cpuinfo
            run df -h
            run df -hT /
            run du -sh .
            run du -h --max-depth=1 /tmp
            run tail -n 20 log.txt
            run tail -20 log.txt
            run tail -c 100 log.txt
            run tail -n +5 log.txt
            run head -n 5 f
            run head -5 f
            run head -n -1 f
            run head -c 10 f
            run wc -l f
            run wc -lw f data.txt
            run ps aux
            run ps -ef
            run ps -eo pid,comm
            run ps -p 1 -o pid,args
            run ps axo pid,ppid,stat
            run stat f
            run stat -c %s f
            run stat -f /
            run file f
            run file -b --mime-type f
            run date +%F
            run date -u +%s
            run date -d tomorrow +%F
            run date -Iseconds
            run date -r f
            run whoami
            run uname -a
            run uname -sr
            run pwd
            run pwd -P
            run uptime
            run uptime -p
            run which -a ls
            run sw_vers -productVersion
            # the operand guard
            ask head -n1 /dev/pts/3
            ask head -n1 /dev/tty
            ask cat /dev/stdin
            ask cat /dev/stdout
            ask cat /dev/stderr
            ask cat /proc/kmsg
            ask cat /sys/kernel/debug/tracing/trace_pipe
            ask cat /sys/kernel/tracing/trace_pipe
            ask cat /dev/fd/0
            ask cat /proc/self/fd/0
            ask cat /proc/self/environ
            ask cat /proc/thread-self/environ
            ask cat /proc/4242/environ
            ask cat /proc/1/environ
            ask cat /proc/self/../self/environ
            ask cat env
            ask cat term
            ask cat ./term
            ask cat src/../term
            ask cat /tmp/pts/3
            ask cat up/dev/tty
            ask cat up/proc/self/environ
            ask cat //dev//tty
            ask cat /usr/../dev/tty
            ask cat fifo
            ask cat sock
            ask tail /dev/zero
            ask head -n -1 /dev/zero
            ask cat /dev/urandom
            ask ls /net/example.com
            ask ls /NET/example.com
            ask cat /Proc/Self/environ
            ask /usr/../usr/bin/tail -f log.txt
            ask //usr//bin/tail -f log.txt
            ask /usr/bin/./head -n1 /dev/pts/3
            run /usr/../usr/bin/tail -n 20 log.txt
            run ls /net
            ask wc --files0-from=/dev/pts/3
            ask wc --files0-from /dev/tty
            ask wc --files0=/dev/tty
            ask du --files0-from=/dev/pts/3
            ask date -f /dev/pts/3
            ask date --file=/dev/tty
            ask file -f /dev/pts/3
            ask file -f/dev/pts/3
            ask file -bf/dev/pts/3
            ask stat -- /dev/tty
            ask printf %s /dev/tty
            ask printf -f/dev/tty
            ask printf --x=/dev/tty
            ask printf @/dev/tty
            ask printf -abc/dev/pts/3
            ask printf file:///dev/tty
            ask printf --in=file:/dev/tty
            ask printf a,/dev/tty
            ask printf if=/proc/self/environ
            run printf %s,%s a b
            run printf https://example.com/a/b
            ask ls -la /dev/pts/3
            ask grep -f /dev/tty README.md
            ask diff README.md /dev/tty
            # tail: follow in every spelling
            ask tail -f log.txt
            ask tail -F log.txt
            ask tail --follow log.txt
            ask tail --follow=name log.txt
            ask tail --fol log.txt
            ask tail -n 5 -f log.txt
            ask tail -qf log.txt
            ask tail log.txt -f
            run tail -- log.txt -f
            run tail -- -f
            ask tail -1f log.txt
            ask tail +f log.txt
            run tail log.txt -- -1f
            ask tail +1f log.txt
            ask tail -1f log.txt
            ask tail +f log.txt
            ask tail -cf log.txt
            ask tail -5lf log.txt
            ask tail --retry -F log.txt
            ask tail --pid=1 -f log.txt
            ask gtail -f log.txt
            ask tail -n 5 log.txt --follow
            # date
            ask date -s 2020-01-01
            ask date --set=2020-01-01
            ask date --se 2020-01-01
            ask date -us 2020-01-01
            ask date 0101000020
            ask date +%s 0101000020
            ask date -D %s 1700000000
            ask date -t 0
            ask date -d 1
            ask date -Q
            ask date --nope
            # file
            ask file -C -m README.md
            ask file -z f
            ask file --uncompress f
            ask file -Z f
            ask file -M -z f
            # ps: environments
            ask ps e
            ask ps eww
            ask ps auxe
            ask ps -E
            ask ps E
            ask ps -o environ
            ask ps -o pid,environ
            ask ps --format=environ
            ask ps -Q
            # fail closed: options no table knows
            ask ls --nope
            ask cat -Q f
            ask head --follow f
            ask wc --files0 f
            ask uname -S newname
            ask whoami x
            ask uptime x y
            ask sw_vers -x
            ask du --nope .
            # git: global options, subcommands
            run git log --oneline -5
            run git log --oneline --graph --decorate -n 10
            run git log -p -1
            run git log --stat --since=1.week --author=me
            run git log -S foo --format=%h
            run git diff --stat
            run git diff --cached --name-only
            run git diff HEAD~1 -- src
            run git diff --no-ext-diff --no-textconv
            run git show HEAD --stat
            run git status
            run git status --short -b
            run git status --porcelain=v2
            run git branch
            run git branch -a -v
            run git branch --list fix
            run git rev-parse --show-toplevel
            run git rev-parse HEAD
            run git ls-files -m
            run git blame -L 1,5 README.md
            run git -C src log -1
            run git --no-pager log -1
            run git log -10
            run git log --patch
            run git log --graph --oneline --all
            run git log --oneline --all -- docs
            run git shortlog -sn
            run git describe --tags
            run git cat-file -p HEAD
            run git reflog
            run git reflog show -5
            run git remote -v
            run git remote get-url origin
            run git config user.email
            run git config --get user.name
            run git config --list --show-origin
            run git ls-tree -r HEAD
            run git grep -n TODO
            ask git reflog expire --all
            ask git reflog delete HEAD@{1}
            ask git remote add x /tmp
            ask git remote update
            ask git config user.email x@y
            ask git config --unset user.email
            ask git config -e
            ask git config set user.name x
            ask git config --global core.pager sh
            ask git log -1 --format=tformat:bash --output=allow
            ask git log --output allow
            ask git log --output=/home/u/.config/aii/allow
            ask git log --ext-diff -p
            ask git diff --ext-diff
            ask git log -p --textconv
            ask git show --textconv HEAD
            ask git diff -O/dev/zero
            ask git diff -O /dev/zero
            ask git -c core.pager=sh log
            ask git -ccore.fsmonitor=x status
            ask git --config-env=core.pager=X log
            ask git --exec-path=/tmp log
            ask git help log
            ask git log --help
            ask git --help log
            ask git lg
            ask git commit -m x
            ask git push
            ask git fetch
            ask git config core.pager sh
            ask git branch newbranch
            ask git branch -D main
            ask git branch --edit-description
            ask git grep -O x
            ask git grep --open-files-in-pager=vim x
            ask git cat-file --textconv HEAD:f
            ask git blame --textconv f
            ask git -C /dev/fd log
            ask git log --nope
            ask git -Q log
            # sort
            run sort data.txt
            run sort -n -k 2 -t , data.txt
            run sort -u -r data.txt
            ask sort data.txt -o out
            ask sort -o out data.txt
            ask sort -oout data.txt
            ask sort -no out data.txt
            ask sort --output=out data.txt
            ask sort --out=out data.txt
            ask sort --compress-program=sh data.txt
            ask sort --compress=sh data.txt
            ask sort -T /tmp data.txt
            ask sort --files0-from=list0
            # tar
            run tar tf a.tar
            run tar -tvf a.tar
            run tar --list -f a.tar
            run tar -tzf a.tar
            ask tar xf a.tar
            ask tar -xf a.tar
            ask tar -xvf a.tar
            ask tar --extract -f a.tar
            ask tar --get -f a.tar
            ask tar cf out.tar src
            ask tar -czf out.tar src
            ask tar tf a.tar --checkpoint-action=exec=sh
            ask tar tf a.tar --checkpoint=1 --checkpoint-act=exec=sh
            ask tar -I sh -tf a.tar
            ask tar -Ish -tf a.tar
            ask tar --use-compress-program=sh -tf a.tar
            ask tar --use-comp=sh -tf a.tar
            ask tar tf a.tar --to-command=sh
            ask tar -tf host:a.tar
            ask tar -tf a.tar --rsh-command=/bin/sh
            ask tar tFf sh a.tar
            ask tar -tf a.tar -F sh
            ask tar -t -f a.tar --delete x
            ask tar -tf a.tar -T list0
            ask tar -tf /dev/tty
            ask tar --nope -tf a.tar
            ask bsdtar -xf a.tar
            # xxd
            run xxd data.txt
            run xxd -l 64 data.txt
            run xxd -c 8 -g 1 data.txt
            run xxd -r data.txt
            run xxd -p data.txt -
            ask xxd data.txt out
            ask xxd -r data.txt out
            ask xxd -c 8 data.txt out
            ask xxd -- data.txt out
            ask xxd -Q data.txt
            # find (allowed here by a hand-written "find")
            run find . -name *.c
            run find src -type f -mtime -1 -print
            run find . ( -name a -o -name b ) -prune
            ask find . -exec sh ;
            ask find . -execdir sh {} +
            ask find . -ok sh ;
            ask find . -okdir sh ;
            ask find . -delete
            ask find . -fprint out
            ask find . -fprint0 out
            ask find . -fprintf out %p
            ask find . -fls out
            ask find . -name x -or -delete
            ask find . -nope
            ask find . -newer /dev/tty
            # uniq, split, base64, man, less
            run uniq data.txt
            run uniq -c data.txt
            run uniq data.txt -
            ask uniq data.txt out
            ask uniq -c data.txt out
            ask uniq data.txt -c out
            ask split data.txt
            ask split -l 10 data.txt part
            ask split --filter=sh data.txt
            run base64 data.txt
            run base64 -d data.txt
            ask base64 -o out data.txt
            ask base64 --output=out data.txt
            ask base64 -i data.txt -o out
            run man ls
            run man 1 ls
            run man -k printf
            ask man -P sh ls
            ask man --pager=sh ls
            ask man -H ls
            ask man --html=firefox ls
            ask man -X ls
            ask man -C /tmp/x ls
            run less README.md
            run less -N README.md
            ask less -o out README.md
            ask less -Oout README.md
            ask less --log-file=out README.md
            ask less -k keys README.md
            ask less --lesskey-src=keys README.md
            # grep, rg
            # BSD grep -r reads the FIFOs it finds unless told -D skip; GNU grep -R follows links
            ask grep -rn TODO src
            run grep -rn -D skip TODO src
            run grep -r --devices=skip TODO src
            ask grep -R -D skip TODO src
            ask rgrep TODO src
            ask rgrep TODO /proc
            ask gzip -rc src
            run grep -n TODO README.md
            run grep -i foo README.md
            run grep -e -o README.md
            ask grep -r foo /proc
            ask grep -r foo /
            ask grep -R foo up
            ask grep -D read foo /dev/tty
            ask grep --devices=read -r x src
            ask rg --pre sh x
            ask rg --pre=sh x
            ask rg -z x
            ask rg --hostname-bin=sh x
            ask rg x /proc
            run rg TODO src
            # other text tools
            run diff README.md notes.md
            run diff -u README.md notes.md
            # a directory's files are read through their links
            ask diff -r src /tmp
            ask diff src /tmp
            run diff -r --no-dereference src /tmp
            ask diff -r / /tmp
            ask diff -l README.md notes.md
            ask diff --paginate README.md notes.md
            run cmp f data.txt
            run comm f data.txt
            run nl f
            run od -c f
            run hexdump -C f
            run jq . data.txt
            run jq -r .name data.txt
            ask jq --rawfile x /dev/tty .
            run column -t data.txt
            run cut -d , -f 1 data.txt
            run paste f data.txt
            run tr a-z A-Z
            run gzip -c f
            run gzip -l f
            ask gzip f
            ask gunzip f
            ask gzip -d f
            """;

    static Stream<Arguments> table() {
        return CaseTable.rows(TABLE);
    }

    @ParameterizedTest
    @MethodSource("table")
    void guardedFormsAskAndBenignFormsRun(boolean asks, List<String> argv) {
        CaseTable.check(POLICY, asks, argv);
    }

    @Test
    void theReasonNamesWhatTheFormDoes() {
        assertEquals(List.of(CLOCK), reasons("date", "-s", "2020-01-01"));
        assertEquals(List.of(DECOMPRESS, COMPILE), reasons("file", "-zC", "-m", "README.md"));
        assertEquals(List.of("this form of tail can wait for input forever"), reasons("tail", "-f", "log.txt"));
        assertEquals(List.of("this form of git can write files"), reasons("git", "log", "--output=x"));
        assertEquals(List.of("/dev/pts/3 is not a regular file or directory"), reasons("head", "-n1", "/dev/pts/3"));
        assertEquals(List.of("term is not a regular file or directory (it leads to /dev/pts/3)"),
                reasons("cat", "term"));
        assertEquals(List.of("/proc/self/environ is under /proc/self/"), reasons("cat", "/proc/self/environ"));
        assertEquals(List.of("env is under /proc/<pid>/ (it leads to /proc/4242/environ)"), reasons("cat", "env"));
        assertEquals(List.of("/net/h is under /net/"), reasons("ls", "/net/h"));
        assertEquals(List.of("aii does not know the option -M of file"), reasons("file", "-M", "f"));
        assertEquals(List.of("no ls that aii knows accepts these arguments"), reasons("ls", "--nope"));
        assertEquals(List.of("aii has no guard table for git lg"), reasons("git", "lg"));
        assertEquals(List.of("this form of ps shows other processes' environments"), reasons("ps", "e"));
        assertEquals(List.of("'/proc/1/\\x1B[2J' is under /proc/<pid>/"), reasons("cat", "/proc/1/\u001b[2J"));
    }

    private static List<String> reasons(String program, String... args) {
        return ArgumentGuards.check(FakeDisk.environment(), program, List.of(args)).reasons();
    }
}
