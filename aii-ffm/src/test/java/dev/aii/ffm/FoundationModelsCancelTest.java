package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.ffm.FoundationModelsSessionTest.RecordingSink;
import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.StubShim;
import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import dev.aii.model.TextSink;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stopping answers over the C stub: a cancel before the shim has started the
 * answer, between events, racing the answer's end, and the prompt after a
 * cancel while the framework still winds the stopped answer down.
 */
class FoundationModelsCancelTest {

    private static final Duration HANG_GUARD = Duration.ofSeconds(20);

    private final FoundationModelsBackend backend =
            new FoundationModelsBackend(StubShim.environment(), new Host("Linux", "6.1", Optional.empty()));

    @BeforeEach
    void resetStub() {
        StubShim.resetAll();
    }

    @AfterEach
    void noSessionLeftAndNoContractBroken() {
        StubShim.openRespondGate();
        assertEquals(0, StubShim.liveSessions(), "sessions still open in the shim");
        assertEquals(0, StubShim.contractViolations(), "calls that broke the contract of fmshim.h");
    }

    @Test
    void aCancelThatArrivesBeforeTheShimStartsTheAnswerStopsItWithoutAskingTheModel() throws Exception {
        // Without the cancel this answer would wait 30 s for one.
        StubShim.delta("never");
        StubShim.waitForCancel(30_000);
        StubShim.closeRespondGate();
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, "p", sink));
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                while (StubShim.waitingAtGate() == 0) {
                    Thread.onSpinWait();
                }
            });
            // The call is on its way into the shim; its answer has not started.
            session.cancel();
            StubShim.openRespondGate();
            assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        }
        assertEquals(fmshim_h.FMSHIM_ERR_CANCELLED(), StubShim.lastStatus());
        assertEquals(0, StubShim.eventsDelivered());
        assertEquals(List.of(), sink.pieces);
    }

    @Test
    void aCancelDuringAnEventStopsTheAnswerBeforeTheNextEvent() throws ModelException {
        for (int i = 0; i < 10; i++) {
            StubShim.delta("piece " + i + ". ");
        }
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", piece -> {
                sink.accept(piece);
                session.cancel();
            });
        }
        assertEquals(List.of("piece 0. "), sink.pieces);
        assertEquals(1, StubShim.eventsDelivered());
        // The callback that saw the cancel said stop: aii does not rely on the shim to notice.
        assertEquals(fmshim_h.FMSHIM_ERR_STOPPED(), StubShim.lastStatus());
    }

    @Test
    void aCancelBetweenEventsIsSeenByTheShimBeforeTheNextEvent() throws Exception {
        StubShim.delta("Thinking");
        StubShim.waitForCancel(30_000);
        StubShim.delta("never");
        RecordingSink sink = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, "p", sink));
            assertTrue(sink.first.await(10, TimeUnit.SECONDS));
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                while (StubShim.eventsDelivered() == 0) {
                    Thread.onSpinWait();
                }
            });
            session.cancel();
            assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        }
        assertEquals(List.of("Thinking"), sink.pieces);
    }

    @Test
    void aCancelRacingTheEndOfAnAnswerLeavesItCompleteAndNeverReachesTheNextAnswer() throws ModelException {
        Session[] holder = new Session[1];
        dev.aii.model.ToolSpec tool = new dev.aii.model.ToolSpec("t", "d", "{}", json -> {
            holder[0].cancel(); // the answer's last step: the cancel has nothing left to stop
            return "done";
        });
        StubShim.delta("all of it");
        StubShim.toolCall("{}");
        RecordingSink first = new RecordingSink();
        RecordingSink second = new RecordingSink();
        try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(tool)))) {
            holder[0] = session;
            session.respond("p", first);
            assertEquals(fmshim_h.FMSHIM_OK(), StubShim.lastStatus());
            StubShim.script(() -> StubShim.delta("the next answer, whole"));
            session.respond("again", second);
        }
        assertEquals("all of it", first.text());
        assertEquals("the next answer, whole", second.text());
        assertEquals(fmshim_h.FMSHIM_OK(), StubShim.lastStatus());
    }

    @Test
    void afterACancelTheNextPromptWaitsForTheStoppedAnswerToWindDownAndIsAnswered() throws Exception {
        StubShim.windDownAfterEarlyEnd(300, 5_000);
        StubShim.delta("Thinking");
        StubShim.waitForCancel(30_000);
        RecordingSink first = new RecordingSink();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            cancelAfterFirstPiece(session, first);
            StubShim.script(() -> StubShim.delta("Fresh answer."));
            RecordingSink second = new RecordingSink();
            assertTimeoutPreemptively(HANG_GUARD, () -> session.respond("next", second));
            assertEquals("Fresh answer.", second.text());
        }
        // The cancelled answer, then the one that waited inside the shim: nothing is asked twice.
        assertEquals(2, StubShim.respondCalls());
    }

    @Test
    void aStoppedAnswerThatOutlastsTheShimsWaitIsReportedAsStoppingNotAsModelBusyWithoutAskingAgain() throws Exception {
        StubShim.windDownAfterEarlyEnd(600_000, 200);
        StubShim.delta("Thinking");
        StubShim.waitForCancel(30_000);
        try (Session session = backend.openSession(SessionOptions.plain())) {
            cancelAfterFirstPiece(session, new RecordingSink());
            ModelException e = assertTimeoutPreemptively(HANG_GUARD,
                    () -> assertThrows(ModelException.class, () -> session.respond("next", new RecordingSink())));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The previous answer is still stopping in Foundation Models; try again", e.getMessage());
            assertEquals(Optional.of("concurrentRequests: the session is still responding to an earlier request"),
                    e.detail());
        }
        assertEquals(2, StubShim.respondCalls(), "the shim's one wait, no second one on this side");
    }

    @Test
    void concurrentRequestsWithoutAStoppedAnswerBeforeStaysRateLimitedAndIsNotAskedAgain() throws ModelException {
        StubShim.fail(fmshim_h.FMSHIM_ERR_CONCURRENT_REQUESTS(), "concurrentRequests");
        try (Session session = backend.openSession(SessionOptions.plain())) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", new RecordingSink()));
            assertEquals(ErrorCode.RATE_LIMITED, e.code());
            assertEquals("Model busy, try again", e.getMessage());
        }
        assertEquals(1, StubShim.respondCalls());
    }

    @Test
    void aCancelWhileTheShimWaitsForTheStoppedAnswerEndsTheWait() throws Exception {
        StubShim.windDownAfterEarlyEnd(600_000, 600_000);
        StubShim.delta("Thinking");
        StubShim.waitForCancel(30_000);
        try (Session session = backend.openSession(SessionOptions.plain())) {
            cancelAfterFirstPiece(session, new RecordingSink());
            CompletableFuture<Void> next = CompletableFuture.runAsync(() -> respond(session, "next", new RecordingSink()));
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                while (StubShim.respondCalls() < 2) {
                    Thread.onSpinWait();
                }
            });
            session.cancel();
            // Returns normally (a cancelled answer is no error), long before the shim's wait would end.
            assertTimeoutPreemptively(HANG_GUARD, () -> next.get());
        }
        assertEquals(2, StubShim.respondCalls());
    }

    @Test
    void aToolCallOfACancelledAnswerNeverRunsInTheNextOne() throws Exception {
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.aii.model.ToolSpec tool = new dev.aii.model.ToolSpec("t", "d", "{}", json -> {
            ran.add(json);
            return "ran";
        });
        StubShim.delta("Let me check.");
        StubShim.waitForCancel(30_000);
        try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(tool)))) {
            cancelAfterFirstPiece(session, new RecordingSink());
            StubShim.script(() -> {
                StubShim.staleToolCall("{\"from\":\"the cancelled answer\"}");
                StubShim.delta("never");
            });
            RecordingSink second = new RecordingSink();
            ModelException e = assertThrows(ModelException.class, () -> session.respond("next", second));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The Foundation Models shim passed on a call of an earlier answer", e.getMessage());
            assertEquals(List.of(), second.pieces);

            StubShim.script(() -> {
                StubShim.toolCall("{\"from\":\"this answer\"}");
                StubShim.echoToolResult("tool: ");
            });
            RecordingSink third = new RecordingSink();
            session.respond("third", third);
            assertEquals("tool: ran", third.text());
        }
        assertEquals(List.of("{\"from\":\"this answer\"}"), ran);
    }

    @Test
    void aToolThatFailsEndsTheAnswerWithToolFailedAsTheShimDoes() throws ModelException {
        dev.aii.model.ToolSpec tool = new dev.aii.model.ToolSpec("t", "d", "{}", json -> {
            throw new IllegalStateException("broken");
        });
        StubShim.toolCall("{}");
        try (Session session = backend.openSession(new SessionOptions(Optional.empty(), List.of(tool)))) {
            assertThrows(ModelException.class, () -> session.respond("p", piece -> { }));
        }
        assertEquals(fmshim_h.FMSHIM_ERR_TOOL_FAILED(), StubShim.lastStatus());
    }

    /** Plays the stub's script, and cancels the answer once its first piece has arrived. */
    private static void cancelAfterFirstPiece(Session session, RecordingSink sink) throws Exception {
        CompletableFuture<Void> answer = CompletableFuture.runAsync(() -> respond(session, "p", sink));
        assertTrue(sink.first.await(10, TimeUnit.SECONDS));
        session.cancel();
        assertTimeoutPreemptively(HANG_GUARD, () -> answer.get());
        // Cancelled, or stopped by the callback when the cancel came while it ran: an early end either way.
        int status = StubShim.lastStatus();
        assertTrue(status == fmshim_h.FMSHIM_ERR_CANCELLED() || status == fmshim_h.FMSHIM_ERR_STOPPED(), "status " + status);
    }

    private static void respond(Session session, String prompt, TextSink sink) {
        try {
            session.respond(prompt, sink);
        } catch (ModelException e) {
            throw new AssertionError(e);
        }
    }
}
