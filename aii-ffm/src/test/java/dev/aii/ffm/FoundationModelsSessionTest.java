package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.StubShim;
import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Sessions over the C stub: streaming, cancellation, closing, and callbacks that go wrong. */
class FoundationModelsSessionTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    private final FoundationModelsBackend backend =
            new FoundationModelsBackend(StubShim.environment(), new Host("Linux", "6.1", Optional.empty()));

    /** A sink that records the pieces and the threads they arrived on. */
    static final class RecordingSink implements dev.aii.model.TextSink {
        final List<String> pieces = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch first = new CountDownLatch(1);

        @Override
        public void accept(String piece) {
            pieces.add(piece);
            threads.add(Thread.currentThread());
            first.countDown();
        }

        String text() {
            return String.join("", pieces);
        }
    }

    @BeforeEach
    void resetStub() {
        StubShim.resetAll();
    }

    @AfterEach
    void noSessionLeftAndNoContractBroken() {
        assertEquals(0, StubShim.liveSessions(), "sessions still open in the shim");
        assertEquals(0, StubShim.contractViolations(), "calls that broke the contract of fmshim.h");
    }

    @Test
    void theAnswerStreamsInChunksOnTheCallingThread() throws ModelException {
        StubShim.delta("Hello");
        StubShim.delta(", ");
        StubShim.delta("world.");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("Say hello", sink);
        }
        assertEquals(List.of("Hello", ", ", "world."), sink.pieces);
        assertTrue(sink.threads.stream().allMatch(t -> t == Thread.currentThread()));
        assertEquals("Say hello", StubShim.lastText("prompt"));
    }

    @Test
    void aPromptWithNulAndNonAsciiReachesTheShimByteForByte() throws ModelException {
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("a\0b \u00e9\u20ac\uD83D\uDE00", new RecordingSink());
        }
        assertEquals("a\0b \u00e9\u20ac\uD83D\uDE00", StubShim.lastText("prompt"));
    }

    @Test
    void multiByteCharactersSplitAcrossDeltasArriveWhole() throws ModelException {
        byte[] text = "\u00e9\u20ac\uD83D\uDE00!".getBytes(StandardCharsets.UTF_8); // 2 + 3 + 4 + 1 bytes
        for (byte b : text) {
            StubShim.delta(new byte[] {b});
        }
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
        }
        assertEquals(List.of("\u00e9", "\u20ac", "\uD83D\uDE00", "!"), sink.pieces);
    }

    @Test
    void anAnswerEndingInsideACharacterEndsWithAReplacementCharacter() throws ModelException {
        StubShim.delta("ok ");
        StubShim.delta(new byte[] {(byte) 0xE2, (byte) 0x82});
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
        }
        assertEquals("ok \uFFFD", sink.text());
    }

    @Test
    void aResetThatExtendsTheTextAppendsOnlyTheNewPart() throws ModelException {
        StubShim.delta("The answer");
        StubShim.resetEvent("The answer is 42.");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
        }
        assertEquals(List.of("The answer", " is 42."), sink.pieces);
    }

    @Test
    void aResetToANewSegmentAppendsAllOfIt() throws ModelException {
        StubShim.delta("Let me look.");
        StubShim.resetEvent("It is sunny.");
        StubShim.delta(" Enjoy.");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
        }
        assertEquals("Let me look.It is sunny. Enjoy.", sink.text());
    }

    @Test
    void aResetRewritingPrintedTextKeepsWhatWasPrintedAndAppendsOnlyBeyondIt() throws ModelException {
        StubShim.delta("Hello wrold");
        StubShim.resetEvent("Hello w");
        StubShim.delta("orld, friend");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
        }
        assertEquals("Hello wrold, friend", sink.text());
    }

    @Test
    void instructionsReachTheShimAndNoToolMeansNull() throws ModelException {
        try (Session session = backend.openSession(new SessionOptions(Optional.of("Be brief."), List.of()))) {
            session.respond("p", new RecordingSink());
        }
        assertEquals("Be brief.", StubShim.lastText("instructions"));
        assertNull(StubShim.lastText("tool_name"));
    }

    @Test
    void noInstructionsMeansNull() throws ModelException {
        Session session = backend.openSession(SessionOptions.plain());
        assertNull(StubShim.lastText("instructions"));
        session.close();
    }

    @Test
    void instructionsWithNulCannotOpenASession() {
        ModelException e = assertThrows(ModelException.class,
                () -> backend.openSession(new SessionOptions(Optional.of("a\0b"), List.of())));
        assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
        assertEquals("Cannot open a Foundation Models session: a NUL character in the instructions",
                e.getMessage());
    }

    @Test
    void aSessionTheShimCannotOpenIsATypedError() {
        StubShim.failNextCreate(fmshim_h.FMSHIM_ERR_SCHEMA(), "unsupported JSON schema type \"null\"");
        ToolSpec tool = new ToolSpec("t", "d", "{\"type\":\"null\"}", json -> "");
        ModelException e = assertThrows(ModelException.class,
                () -> backend.openSession(new SessionOptions(Optional.empty(), List.of(tool))));
        assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
        assertEquals("Foundation Models rejected the tool's parameter schema", e.getMessage());
        assertEquals(Optional.of("unsupported JSON schema type \"null\""), e.detail());
    }

    @Test
    void aGenerationErrorEndsTheAnswerAfterTheTextSoFar() {
        StubShim.delta("Partial");
        StubShim.fail(fmshim_h.FMSHIM_ERR_GUARDRAIL_VIOLATION(), "guardrailViolation: unsafe");
        RecordingSink sink = new RecordingSink();
        ModelException e = assertThrows(ModelException.class, () -> {
            try (Session session = backend.openSession(SessionOptions.plain())) {
                session.respond("p", sink);
            }
        });
        assertEquals("Partial", sink.text());
        assertEquals(ErrorCode.GUARDRAIL_VIOLATION, e.code());
        assertEquals(Optional.of("guardrailViolation: unsafe"), e.detail());
    }

    @Test
    void contextExceededNamesTheContextSize() {
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 4096);
        StubShim.fail(fmshim_h.FMSHIM_ERR_CONTEXT_EXCEEDED(), "exceededContextWindowSize");
        ModelException e = assertThrows(ModelException.class, () -> {
            try (Session session = backend.openSession(SessionOptions.plain())) {
                session.respond("p", new RecordingSink());
            }
        });
        assertEquals(ErrorCode.CONTEXT_EXCEEDED, e.code());
        assertEquals("Exceeds 4096-token context window\n"
                + "try a shorter input or use /new to reset context in interactive mode", e.getMessage());
    }

    @Test
    void theSessionKeepsWorkingAfterAFailedAnswer() throws ModelException {
        StubShim.fail(fmshim_h.FMSHIM_ERR_RATE_LIMITED(), "rateLimited");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            assertEquals(ErrorCode.RATE_LIMITED,
                    assertThrows(ModelException.class, () -> session.respond("p", sink)).code());
            StubShim.resetAll();
            StubShim.delta("fine");
            session.respond("again", sink);
        }
        assertEquals("fine", sink.text());
    }

    @Test
    void cancelFromAnotherThreadEndsTheAnswerNormally() throws Exception {
        StubShim.delta("Thinking");
        StubShim.waitForCancel(30_000);
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respondUnchecked(session, sink));
            assertTrue(sink.first.await(10, TimeUnit.SECONDS));
            session.cancel();
            session.cancel();
            assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        }
        assertEquals("Thinking", sink.text());
        assertTrue(StubShim.cancelCalls() >= 1);
    }

    @Test
    void cancelWithoutAnAnswerInProgressDoesNothing() throws ModelException {
        StubShim.delta("ok");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.cancel();
            session.respond("p", sink);
        }
        assertEquals("ok", sink.text());
        assertEquals(0, StubShim.cancelCalls());
    }

    @Test
    void aSecondAnswerWhileOneIsInProgressIsBusy() throws Exception {
        StubShim.delta("first");
        StubShim.waitForCancel(30_000);
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respondUnchecked(session, sink));
            assertTrue(sink.first.await(10, TimeUnit.SECONDS));
            ModelException busy = assertThrows(ModelException.class, () -> session.respond("second", new RecordingSink()));
            assertEquals(ErrorCode.INTERNAL_ERROR, busy.code());
            assertEquals("The session is already answering a prompt", busy.getMessage());
            session.cancel();
            assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        }
        assertEquals(1, StubShim.respondCalls());
    }

    @Test
    void closingFromAnotherThreadDuringAnAnswerCancelsItAndFreesTheSessionAfterwards() throws Exception {
        StubShim.delta("Working");
        StubShim.waitForCancel(30_000);
        RecordingSink sink = new RecordingSink();
        Session session = backend.openSession(SessionOptions.plain());
        CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respondUnchecked(session, sink));
        assertTrue(sink.first.await(10, TimeUnit.SECONDS));
        assertTimeoutPreemptively(HANG_GUARD, session::close);
        assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        assertEquals(0, StubShim.liveSessions());
        ModelException closed = assertThrows(ModelException.class, () -> session.respond("p", new RecordingSink()));
        assertEquals("The Foundation Models session is closed", closed.getMessage());
        session.close();
    }

    @Test
    void closingFromInsideTheSinkFreesTheSessionWhenTheAnswerReturns() throws ModelException {
        StubShim.delta("one");
        StubShim.delta("two");
        Session session = backend.openSession(SessionOptions.plain());
        List<String> pieces = new ArrayList<>();
        session.respond("p", piece -> {
            pieces.add(piece);
            session.close();
        });
        assertEquals(List.of("one"), pieces);
        assertEquals(0, StubShim.liveSessions());
    }

    @Test
    void anExceptionInTheSinkEndsTheAnswerAndIsRethrownUnchanged() throws ModelException {
        StubShim.delta("one");
        StubShim.delta("two");
        IllegalStateException thrown = new IllegalStateException("stdout is gone");
        List<String> pieces = new ArrayList<>();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> session.respond("p", piece -> {
                pieces.add(piece);
                throw thrown;
            }));
            assertSame(thrown, e);
            StubShim.resetAll();
            StubShim.delta("still alive");
            RecordingSink sink = new RecordingSink();
            session.respond("p", sink);
            assertEquals("still alive", sink.text());
        }
        assertEquals(List.of("one"), pieces);
    }

    @Test
    void anErrorInTheSinkIsRethrownAndTheJvmSurvives() throws ModelException {
        StubShim.delta("deep");
        try (Session session = backend.openSession(SessionOptions.plain())) {
            assertThrows(StackOverflowError.class, () -> session.respond("p", piece -> recurse(piece.length())));
        }
    }

    @Test
    void aCallbackFromAForeignThreadNeverReachesTheSinkAndFailsTheAnswer() {
        StubShim.delta("mine");
        StubShim.foreignDelta("intruder");
        StubShim.delta("never");
        RecordingSink sink = new RecordingSink();
        ModelException e = assertThrows(ModelException.class, () -> {
            try (Session session = backend.openSession(SessionOptions.plain())) {
                session.respond("p", sink);
            }
        });
        assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
        assertEquals("The Foundation Models shim called back on a thread other than the answering one", e.getMessage());
        assertEquals(List.of("mine"), sink.pieces);
        assertEquals(1, StubShim.lastForeignResult());
    }

    @Test
    void noCallbackReachesTheSinkAfterTheAnswerReturned() throws ModelException {
        StubShim.delta("done");
        StubShim.lateDelta("too late", 50);
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", sink);
            assertEquals(1, StubShim.joinLateCallbacks());
        }
        assertEquals(List.of("done"), sink.pieces);
    }

    private static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    private static void respondUnchecked(Session session, dev.aii.model.TextSink sink) {
        try {
            session.respond("p", sink);
        } catch (ModelException e) {
            throw new AssertionError(e);
        }
    }
}
