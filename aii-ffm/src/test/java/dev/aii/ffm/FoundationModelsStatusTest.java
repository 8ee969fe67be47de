package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.StubShim;
import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every status an answer can end with, as the error the command line reports. */
class FoundationModelsStatusTest {

    private final FoundationModelsBackend backend =
            new FoundationModelsBackend(StubShim.environment(), new Host("Linux", "6.1", Optional.empty()));

    @BeforeEach
    void resetStub() {
        StubShim.resetAll();
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 4096);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(fmshim_h.FMSHIM_ERR_CONTEXT_EXCEEDED(), ErrorCode.CONTEXT_EXCEEDED,
                        "Exceeds 4096-token context window\ntry a shorter input or use /new to reset context in interactive mode"),
                Arguments.of(fmshim_h.FMSHIM_ERR_ASSETS_UNAVAILABLE(), ErrorCode.ASSETS_UNAVAILABLE,
                        "Model assets became unavailable mid-session"),
                Arguments.of(fmshim_h.FMSHIM_ERR_GUARDRAIL_VIOLATION(), ErrorCode.GUARDRAIL_VIOLATION,
                        "Prompt blocked by safety filters"),
                Arguments.of(fmshim_h.FMSHIM_ERR_REFUSAL(), ErrorCode.GUARDRAIL_VIOLATION,
                        "Prompt blocked by safety filters"),
                Arguments.of(fmshim_h.FMSHIM_ERR_UNSUPPORTED_LANGUAGE(), ErrorCode.UNSUPPORTED_LANGUAGE,
                        "Prompt language not supported"),
                Arguments.of(fmshim_h.FMSHIM_ERR_RATE_LIMITED(), ErrorCode.RATE_LIMITED, "Model busy, try again"),
                Arguments.of(fmshim_h.FMSHIM_ERR_CONCURRENT_REQUESTS(), ErrorCode.RATE_LIMITED, "Model busy, try again"),
                Arguments.of(fmshim_h.FMSHIM_ERR_UNSUPPORTED_GUIDE(), ErrorCode.INTERNAL_ERROR,
                        "Foundation Models does not support a guide of the tool's schema"),
                Arguments.of(fmshim_h.FMSHIM_ERR_DECODING_FAILURE(), ErrorCode.INTERNAL_ERROR,
                        "Foundation Models could not decode the model's output"),
                Arguments.of(fmshim_h.FMSHIM_ERR_TRANSCRIPT_MUTATION(), ErrorCode.INTERNAL_ERROR,
                        "The session's transcript changed while it was answering"),
                Arguments.of(fmshim_h.FMSHIM_ERR_GENERATION_OTHER(), ErrorCode.INTERNAL_ERROR,
                        "Foundation Models failed to generate an answer"),
                Arguments.of(fmshim_h.FMSHIM_ERR_SCHEMA(), ErrorCode.INTERNAL_ERROR,
                        "Foundation Models rejected the tool's parameter schema"),
                Arguments.of(fmshim_h.FMSHIM_ERR_INVALID_ARGUMENT(), ErrorCode.INTERNAL_ERROR,
                        "The Foundation Models shim rejected an argument"),
                Arguments.of(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), ErrorCode.INTERNAL_ERROR,
                        "This system's Foundation Models does not offer this function"),
                Arguments.of(fmshim_h.FMSHIM_ERR_BUSY(), ErrorCode.INTERNAL_ERROR,
                        "The session is already answering a prompt"),
                Arguments.of(fmshim_h.FMSHIM_ERR_TOOL_FAILED(), ErrorCode.INTERNAL_ERROR, "The tool call failed"),
                Arguments.of(fmshim_h.FMSHIM_ERR_STOPPED(), ErrorCode.INTERNAL_ERROR,
                        "The answer stopped without a reason"),
                Arguments.of(fmshim_h.FMSHIM_ERR_INTERNAL(), ErrorCode.INTERNAL_ERROR, "Foundation Models failed"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void aFailureStatusIsTheTypedErrorWithTheShimsWordsAsDetail(int status, ErrorCode code, String message)
            throws ModelException {
        StubShim.fail(status, "case " + status);
        try (Session session = backend.openSession(SessionOptions.plain())) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", piece -> { }));
            assertEquals(code, e.code());
            assertEquals(message, e.getMessage());
            assertEquals(Optional.of("case " + status), e.detail());
        }
    }

    @Test
    void aFailureWithoutDetailHasNone() throws ModelException {
        StubShim.fail(fmshim_h.FMSHIM_ERR_RATE_LIMITED(), "");
        try (Session session = backend.openSession(SessionOptions.plain())) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", piece -> { }));
            assertEquals(Optional.empty(), e.detail());
        }
    }

    @Test
    void aStatusThisAiiDoesNotKnowIsAnInternalErrorNamingIt() throws ModelException {
        StubShim.fail(99, "something new");
        try (Session session = backend.openSession(SessionOptions.plain())) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", piece -> { }));
            assertEquals(ErrorCode.INTERNAL_ERROR, e.code());
            assertEquals("The Foundation Models shim returned a status this aii does not know", e.getMessage());
            assertEquals(Optional.of("status 99: something new"), e.detail());
        }
    }

    @Test
    void aCancelledStatusEndsTheAnswerNormally() throws ModelException {
        StubShim.delta("partial");
        StubShim.fail(fmshim_h.FMSHIM_ERR_CANCELLED(), "");
        StringBuilder answer = new StringBuilder();
        try (Session session = backend.openSession(SessionOptions.plain())) {
            session.respond("p", answer::append);
        }
        assertEquals("partial", answer.toString());
    }

    @Test
    void aLongDetailIsCutAtACharacterBoundary() throws ModelException {
        StubShim.fail(fmshim_h.FMSHIM_ERR_INTERNAL(), "\u20ac".repeat(1000));
        try (Session session = backend.openSession(SessionOptions.plain())) {
            ModelException e = assertThrows(ModelException.class, () -> session.respond("p", piece -> { }));
            String detail = e.detail().orElseThrow();
            assertEquals("\u20ac".repeat(detail.length()), detail);
            assertEquals(2047 / 3, detail.length());
        }
    }
}
