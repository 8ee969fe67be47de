package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.cli.e2e.AiiProcess.Result;
import dev.aii.testkit.PtyDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The launcher and the flags that need no model: help, version, usage errors, the allowlist listing. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CommandLineE2E {

    static final String DEFAULTS = "ls\npwd\ncat\nhead\ntail\nwc\ndate\nwhoami\nuname\ndf\ndu\nstat\nfile\nwhich\nps\n"
            + "uptime\nsw_vers\n";

    @TempDir
    Path tmp;

    @Test
    void versionPrintsOneLine() throws Exception {
        Result r = new AiiProcess(tmp).run("--version");
        assertEquals(new Result(0, "aii 0.9.0\n", ""), r);
    }

    @Test
    void helpListsEveryFlagExitCodeAndVariableOnStdout() throws Exception {
        Result r = new AiiProcess(tmp).env("COLUMNS", "200").run("--help");
        assertEquals(0, r.exit());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("Usage: aii "), r.out());
        for (String text : List.of(
                "Prompt (one-shot), or system prompt when used with --interactive",
                "-i, --interactive       Start interactive conversational mode",
                "-f, --file=FILE         File to attach as context (one-shot only)",
                "-j, --json              Output errors as JSONL to stderr",
                "-m, --model-info        Show context size, model variant and supported languages, then exit",
                "-x, --exec              Let the model run programs",
                "    --list-allowed      Print the effective exec allowlist and exit",
                "    --reset-allowed     Delete the exec allowlist config file and exit",
                "    --version", "-h, --help",
                "\n  0    ", "\n  1    ", "\n  2    ", "\n  3    ", "\n  4    ", "\n  130  ",
                "    --model=NAME        Model to use on the model server (overrides AII_MODEL)",
                "    --model-file=PATH   GGUF model file to run in this process with llama.cpp, no server needed",
                "AII_MODEL_FILE", "AII_THREADS",
                "AII_BASE_URL", "AII_MODEL", "AII_API_KEY", "AII_CONTEXT_SIZE", "AII_TIMEOUT", "AII_HISTORY",
                "AII_SHIM_LIBRARY", "AII_DEBUG", "AII_AUDIT_LOG", "AII_JAVA_OPTS", "JAVA_HOME", "COLUMNS", "HOME")) {
            assertTrue(r.out().contains(text), () -> "the help lacks " + text + ":\n" + r.out());
        }
        assertEquals(r, new AiiProcess(tmp.resolve("short")).env("COLUMNS", "200").run("-h"));
    }

    @Test
    void theHelpFitsColumnsAnd80WhenItIsUnsetOrNoWidth() throws Exception {
        Result unset = new AiiProcess(tmp.resolve("unset")).run("--help");
        for (String columns : List.of("80", "abc", "0", "-3", "", "99999", "8 0")) {
            assertEquals(unset, new AiiProcess(tmp.resolve("c" + columns.hashCode())).env("COLUMNS", columns)
                    .run("--help"), "COLUMNS=" + columns);
        }
        for (int columns : List.of(80, 60, 40, 24)) {
            Result r = new AiiProcess(tmp.resolve("w" + columns)).env("COLUMNS", Integer.toString(columns))
                    .run("--help");
            assertEquals(0, r.exit());
            for (String line : r.out().lines().toList()) {
                assertTrue(line.codePointCount(0, line.length()) <= columns, "COLUMNS=" + columns + ": " + line);
            }
            assertTrue(r.out().contains("--model"), r.out());
        }
    }

    @Test
    void noArgumentsOnATerminalShowsTheHelp() throws Exception {
        Result help = new AiiProcess(tmp.resolve("piped")).run("--help");
        try (PtyDriver pty = new AiiProcess(tmp).onTerminal(List.of())) {
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
            assertEquals(help.out().replace("\n", "\r\n"), pty.output());
        }
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithAHint() throws Exception {
        Result r = new AiiProcess(tmp).run("--bogus", "hello");
        assertEquals(new Result(2, "", "aii: Unknown option: '--bogus'\naii: run 'aii --help' for usage\n"), r);
    }

    @Test
    void anUnknownOptionUnderJsonIsOneJsonLine() throws Exception {
        Result r = new AiiProcess(tmp).run("--json", "--bogus");
        assertEquals(new Result(2, "", "{\"error\":\"usage_error\",\"message\":\"Unknown option: '--bogus'\\n"
                + "run 'aii --help' for usage\",\"exitCode\":2}\n"), r);
    }

    @Test
    void listAllowedWithoutAConfigFileShowsTheBuiltInDefaults() throws Exception {
        Result r = new AiiProcess(tmp).run("--list-allowed");
        assertEquals(new Result(0, "# source: built-in defaults (no config file)\n" + DEFAULTS, ""), r);
    }

    @Test
    void listAllowedShowsTheConfigFileOfThisHome() throws Exception {
        AiiProcess aii = new AiiProcess(tmp).allow("# mine\ngit   status\n'my prog' \"a b\"\n\nls\n");
        Result r = aii.run("--list-allowed");
        assertEquals(new Result(0, "# source: " + aii.allowFile() + "\ngit status\n'my prog' 'a b'\nls\n", ""), r);
    }

    @Test
    void resetAllowedRemovesTheConfigFileOnce() throws Exception {
        AiiProcess aii = new AiiProcess(tmp).allow("git status\n");
        assertEquals(new Result(0, "aii: removed config; using built-in defaults\n", ""), aii.run("--reset-allowed"));
        assertEquals(new Result(0, "aii: no config file; using built-in defaults\n", ""), aii.run("--reset-allowed"));
        assertEquals(new Result(0, "# source: built-in defaults (no config file)\n" + DEFAULTS, ""),
                aii.run("--list-allowed"));
    }

    @Test
    void listAllowedWithAPromptIsAConflict() throws Exception {
        Result r = new AiiProcess(tmp).run("--list-allowed", "-x");
        assertEquals(new Result(2, "", "aii: --list-allowed and --reset-allowed cannot be combined with a prompt, "
                + "-i, -x, -f, or each other\n"), r);
    }

    @Test
    void theLauncherWorksThroughAChainOfSymlinksFromAnotherDirectory() throws Exception {
        Path chain = Files.createDirectories(tmp.resolve("chain"));
        Path real = Files.createSymbolicLink(chain.resolve("aii-real"), AiiProcess.LAUNCHER);
        try {
            Path links = Files.createDirectories(tmp.resolve("links"));
            Path link = Files.createSymbolicLink(links.resolve("aii"), Path.of("../chain/aii-real"));
            AiiProcess aii = new AiiProcess(tmp).launcher(link);
            assertEquals(new Result(0, "aii 0.9.0\n", ""), aii.run("--version"));
            assertEquals(new Result(0, "# source: built-in defaults (no config file)\n" + DEFAULTS, ""),
                    aii.run("--list-allowed"));
        } finally {
            // A link out of the temporary directory would make its cleanup warn.
            Files.delete(real);
        }
    }
}
