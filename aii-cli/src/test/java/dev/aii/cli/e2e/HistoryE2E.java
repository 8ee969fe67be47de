package dev.aii.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.testkit.PtyDriver;
import dev.aii.testkit.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** -i keeps its line history across runs in ~/.config/aii/history, on a real terminal. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HistoryE2E extends ServerFixture {

    /** The up arrow, as a terminal sends it once JLine has turned on its application cursor keys. */
    static final String UP = "\u001bOA";

    @BeforeEach
    void aTerminalThatJLineKnows() {
        aii.env("TERM", "xterm-256color");
    }

    private Path history() {
        return aii.home().resolve(".config/aii/history");
    }

    /** One session: each line typed after its prompt, then /quit. */
    private void session(String... lines) throws Exception {
        try (PtyDriver pty = aii.onTerminal(List.of("-i"))) {
            for (String line : lines) {
                pty.awaitOutput("> ", AiiProcess.LIMIT);
                pty.type(line + "\n");
                pty.awaitOutput("\r\n", AiiProcess.LIMIT);
            }
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
    }

    @Test
    void aLineOfOneSessionComesBackWithTheUpArrowInTheNext() throws Exception {
        server.enqueue(Reply.text("A monad chains computations."), Reply.text("Again."));
        session("what is a monad?");
        assertEquals(List.of("what is a monad?", "/quit"), Files.readAllLines(history()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(history())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(history().getParent())));

        try (PtyDriver pty = aii.onTerminal(List.of("-i"))) {
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type(UP + UP);
            pty.awaitOutput("what is a monad?", AiiProcess.LIMIT);
            pty.type("\n");
            pty.awaitOutput("Again.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals("what is a monad?", server.lastChatRequest().lastUserMessage());
    }

    @Test
    void onlyTheLast1000LinesAreKept() throws Exception {
        List<String> old = new ArrayList<>(IntStream.rangeClosed(1, 1000).mapToObj(i -> "old line " + i).toList());
        Files.createDirectories(history().getParent());
        Files.write(history(), old);
        server.enqueue(Reply.text("ok"));
        session("the newest line");
        List<String> kept = Files.readAllLines(history());
        assertEquals(1000, kept.size());
        assertEquals("old line 3", kept.getFirst());
        assertEquals(List.of("old line 1000", "the newest line", "/quit"), kept.subList(997, 1000));
    }

    @Test
    void aLineStartingWithASpaceIsNotKeptNorARepeatOfTheLineBefore() throws Exception {
        server.enqueue(Reply.text("one"), Reply.text("two"), Reply.text("three"));
        session(" my password is hunter2", "same question", "same question");
        assertEquals(List.of("same question", "/quit"), Files.readAllLines(history()));
    }

    @Test
    void offKeepsNothing() throws Exception {
        aii.env("AII_HISTORY", "off");
        server.enqueue(Reply.text("ok"));
        session("a secret I typed");
        assertFalse(Files.exists(history()));
        assertFalse(Files.exists(history().getParent()));
    }

    @Test
    void aHistoryThatCannotBeUsedIsWarnedAboutAndTheSessionGoesOn() throws Exception {
        Files.createDirectories(history().getParent());
        Files.createSymbolicLink(history(), Path.of("/dev/zero"));
        server.enqueue(Reply.text("Still here."));
        try (PtyDriver pty = aii.onTerminal("exec {aii} -i 2>err.txt")) {
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("hi\n");
            pty.awaitOutput("Still here.\r\n", AiiProcess.LIMIT);
            pty.awaitOutput("> ", AiiProcess.LIMIT);
            pty.type("/quit\n");
            assertEquals(0, pty.awaitExit(AiiProcess.LIMIT), pty.output());
        }
        assertEquals("aii: warning: not keeping history in " + history() + ": not a regular file\n",
                Files.readString(aii.directory().resolve("err.txt")));
        assertTrue(Files.isSymbolicLink(history()));
    }

    @Test
    void withoutATerminalNothingIsKept() throws Exception {
        server.enqueue(Reply.text("ok"));
        assertEquals(0, aii.stdin("piped line\n").run("-i").exit());
        assertFalse(Files.exists(history()));
    }
}
