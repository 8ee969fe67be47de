package dev.aii.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Never-always follows the program: the name given, the name it resolves to
 * through symbolic links, and the family of each (versions and variants of
 * a never-always program are never-always too).
 */
class NeverAlwaysFamilyTest {

    /** Links as Debian's alternatives make them, and a multi-call program. */
    private static final Map<String, String> LINKS = Map.of(
            "/usr/bin/editor", "/etc/alternatives/editor",
            "/etc/alternatives/editor", "/usr/bin/vim.basic",
            "/usr/bin/awk", "/etc/alternatives/awk",
            "/etc/alternatives/awk", "/usr/bin/mawk",
            "/usr/bin/pager", "/usr/bin/less",
            "/usr/bin/x86_64", "/usr/bin/setarch",
            "/usr/bin/python3", "/usr/bin/python3.11",
            "/usr/bin/ls", "/usr/bin/busybox",
            "/usr/bin/myview", "/usr/bin/vim.tiny");

    private static final FileProbe DISK = new FileProbe() {
        @Override
        public boolean isExecutableRegularFile(String absolutePath) {
            return absolutePath.startsWith("/usr/bin/");
        }

        @Override
        public Target target(String absolutePath) {
            String at = absolutePath;
            for (int i = 0; i < 8 && LINKS.containsKey(at); i++) {
                at = LINKS.get(at);
            }
            return new Target(Kind.REGULAR_FILE, at);
        }
    };

    private static Decision.Ask ask(String program, String... arguments) {
        Decision d = ExecPolicy.of(RuleSet.empty(), new Environment("/usr/bin", "/home/u", DISK))
                .evaluate(program, List.of(arguments));
        return assertInstanceOf(Decision.Ask.class, d);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vim.basic", "vim.tiny", "vim.gtk3", "vimdiff", "rvim", "gvim", "evim", "rview",
        "rgview", "nvimdiff", "vimtutor", "sensible-editor", "python3.11", "python3.13t", "pythonw", "python3m",
        "perl5.36.0", "node20", "nodejs18", "lua5.4", "luajit", "tclsh8.6", "php8.2", "ruby3.1", "emacs-nox",
        "emacs-gtk", "emacsclient", "gdb-multiarch", "gsed", "gawk", "genv", "gxargs", "gtimeout", "gfind", "grm",
        "gmake", "bmake", "red", "rsh", "rbash", "Python3", "VIM", "busybox-static", "pypy3", "ipython3",
        "x86_64", "linux32", "sudoedit", "sensible-browser", "ash", "mksh"})
    void aVersionOrVariantOfANeverAlwaysProgramIsNeverAlways(String program) {
        assertTrue(Builtins.isNeverAlways(program), program);
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask(program, "x").always());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls", "cat", "head", "tail", "wc", "date", "whoami", "uname", "df", "du", "stat",
        "file", "which", "ps", "uptime", "sw_vers", "git", "grep", "gzip", "gunzip", "sort", "uniq", "less", "more",
        "diff", "cmp", "jq", "shuf", "truncate", "base64", "sha256sum", "md5", "2to3", "7z", "xxd", "tr", "cut",
        "column", "hexdump", "gls", "gdu", "id", "printf", "touch", "mkdir"})
    void otherProgramsStillOfferAlways(String program) {
        assertFalse(Builtins.isNeverAlways(program), program);
    }

    @Test
    void aNameThatLinksToANeverAlwaysProgramIsNeverAlways() {
        // editor -> /etc/alternatives/editor -> vim.basic, a vim; awk -> mawk; x86_64 -> setarch.
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask("editor", "notes.txt").always());
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask("/usr/bin/editor", "notes.txt").always());
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask("myview", "notes.txt").always());
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask("python3", "x.py").always());
    }

    @Test
    void aNameThatLinksToAnOrdinaryProgramKeepsItsAlways() {
        Decision.Ask pager = ask("pager", "notes.txt");
        assertEquals(Decision.Always.OFFERED, pager.always());
        assertEquals(Optional.of(Rule.exactly(List.of("pager", "notes.txt"))), pager.alwaysPrefix());
    }

    @Test
    void aLinkToAMultiCallProgramIsJudgedByTheNameItWasStartedBy() {
        // ls -> busybox runs busybox's ls, which is not busybox's sh.
        assertEquals(Decision.Always.OFFERED, ask("ls", "-l", "x").always());
        assertEquals(Decision.Always.NEVER_ALWAYS_PROGRAM, ask("busybox", "ls").always());
    }
}
