package dev.aii.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aii.ffm.fm.Host;
import dev.aii.ffm.fm.StubShim;
import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ErrorCode;
import dev.aii.model.ModelException;
import dev.aii.model.SessionOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FoundationModelsBackendTest {

    private static final Host LINUX = new Host("Linux", "6.1.0", Optional.empty());

    private static FoundationModelsBackend stubBackend(Host host) {
        return new FoundationModelsBackend(StubShim.environment(), host);
    }

    private static ModelException problem(FoundationModelsBackend backend) {
        return backend.availability().problem().orElseThrow(() -> new AssertionError("expected unavailable"));
    }

    @BeforeEach
    void resetStub() {
        StubShim.resetAll();
    }

    @Test
    void availableWhenTheShimSaysSo() {
        assertTrue(stubBackend(LINUX).availability().isAvailable());
    }

    @Test
    void notEnabledIsUnavailableNotEnabledWithTheCaseNameAsDetail() {
        StubShim.availability(fmshim_h.FMSHIM_UNAVAILABLE_NOT_ENABLED());
        ModelException problem = problem(stubBackend(LINUX));
        assertEquals(ErrorCode.UNAVAILABLE_NOT_ENABLED, problem.code());
        assertEquals("Apple Intelligence is not enabled\nenable it in System Settings \u2192 Apple Intelligence & Siri",
                problem.getMessage());
        assertEquals(Optional.of("appleIntelligenceNotEnabled"), problem.detail());
    }

    @Test
    void modelNotReadyIsUnavailableDownloading() {
        StubShim.availability(fmshim_h.FMSHIM_UNAVAILABLE_MODEL_NOT_READY());
        ModelException problem = problem(stubBackend(LINUX));
        assertEquals(ErrorCode.UNAVAILABLE_DOWNLOADING, problem.code());
        assertEquals("Apple Intelligence model assets are still downloading\ntry again shortly", problem.getMessage());
        assertEquals(Optional.of("modelNotReady"), problem.detail());
    }

    @Test
    void deviceNotEligibleOnMacOsSaysThisDevice() {
        StubShim.availability(fmshim_h.FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE());
        ModelException problem = problem(stubBackend(new Host("Mac OS X", "26.4", Optional.empty())));
        assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, problem.code());
        assertEquals("This device does not support Apple Intelligence", problem.getMessage());
        assertEquals(Optional.of("deviceNotEligible"), problem.detail());
    }

    @Test
    void deviceNotEligibleElsewhereSaysThisSystemWithTheGuidance() {
        StubShim.availability(fmshim_h.FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE());
        ModelException problem = problem(stubBackend(LINUX));
        assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, problem.code());
        assertEquals("Apple Intelligence is not available on this system\n"
                + "set AII_BASE_URL to an OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama)",
                problem.getMessage());
    }

    @Test
    void anUnknownReasonIsAnInternalError() {
        StubShim.availability(fmshim_h.FMSHIM_UNAVAILABLE_UNKNOWN());
        ModelException problem = problem(stubBackend(LINUX));
        assertEquals(ErrorCode.INTERNAL_ERROR, problem.code());
        assertEquals("Apple Intelligence is unavailable for an unknown reason", problem.getMessage());
    }

    @Test
    void aReasonCodeTheShimInventedIsUnknownToo() {
        StubShim.availability(77);
        assertEquals("Apple Intelligence is unavailable for an unknown reason", problem(stubBackend(LINUX)).getMessage());
    }

    @Test
    void withoutTheShimVariableASystemOtherThanMacOsIsNotSupported() {
        FoundationModelsBackend backend = new FoundationModelsBackend(Map.of(), LINUX);
        ModelException problem = problem(backend);
        assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, problem.code());
        assertTrue(problem.getMessage().startsWith("Apple Intelligence is not available on this system\n"));
        assertEquals(FoundationModelsBackend.FALLBACK_CONTEXT_SIZE, backend.contextSize());
        assertEquals(Optional.empty(), backend.supportedLanguages());
        ModelException open = assertThrows(ModelException.class, () -> backend.openSession(SessionOptions.plain()));
        assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, open.code());
    }

    @Test
    void macOsBefore26IsNotSupportedWithoutLoadingAnything() {
        FoundationModelsBackend backend = new FoundationModelsBackend(Map.of(), new Host("Mac OS X", "15.6", Optional.empty()));
        ModelException problem = problem(backend);
        assertEquals(ErrorCode.UNAVAILABLE_NOT_SUPPORTED, problem.code());
        assertEquals("This device does not support Apple Intelligence", problem.getMessage());
        assertEquals(Optional.of("macOS 15.6 has no Foundation Models; it needs macOS 26 or newer"), problem.detail());
    }

    @Test
    void aShimTheVariableNamesThatCannotBeLoadedIsAnInternalErrorNamingItAlone() {
        FoundationModelsBackend backend = new FoundationModelsBackend(
                Map.of("AII_SHIM_LIBRARY", "/nonexistent/libfmshim.so"), LINUX);
        ModelException problem = problem(backend);
        assertEquals(ErrorCode.INTERNAL_ERROR, problem.code());
        List<String> lines = problem.lines();
        assertEquals("Cannot load the Foundation Models shim library libfmshim.so", lines.get(0));
        assertEquals("tried AII_SHIM_LIBRARY=/nonexistent/libfmshim.so: no such file", lines.get(1));
        assertEquals(2, lines.size());
    }

    @Test
    void contextSizeComesFromTheShim() {
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 8192);
        assertEquals(8192, stubBackend(LINUX).contextSize());
    }

    @Test
    void contextSizeFallsBackTo4096WhenTheSystemDoesNotReportIt() {
        StubShim.contextSize(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), 0);
        assertEquals(4096, stubBackend(LINUX).contextSize());
    }

    @Test
    void aContextSizeOfZeroIsUnknownTheFallbackIsMacOs26sWindowAndNothingIsCounted() throws ModelException {
        // macOS 27 reports 0 until its model is ready; counting itself works.
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 0);
        FoundationModelsBackend backend = stubBackend(new Host("Mac OS X", "26.4", Optional.empty()));
        assertEquals(4096, backend.contextSize());
        assertEquals(OptionalInt.empty(), backend.countTokens("x".repeat(5000)));
        assertEquals(4096, stubBackend(LINUX).contextSize());
    }

    @Test
    void fromMacOs27AnUnknownContextSizeFallsBackTo8192AndNoPromptIsRefusedOnTheGuess() throws ModelException {
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 0);
        FoundationModelsBackend backend = stubBackend(new Host("Mac OS X", "27.0", Optional.empty()));
        assertEquals(8192, backend.contextSize());
        assertEquals(OptionalInt.empty(), backend.countTokens("x".repeat(6000)));
        // macOS 27 as SYSTEM_VERSION_COMPAT=1 shows it.
        assertEquals(8192, stubBackend(new Host("Mac OS X", "17.0", Optional.empty())).contextSize());
    }

    @Test
    void anUnsupportedContextSizeCountsNothingEither() throws ModelException {
        StubShim.contextSize(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), 0);
        assertEquals(OptionalInt.empty(), stubBackend(LINUX).countTokens("hello"));
    }

    @Test
    void aContextSizeReportedLaterIsUsedAndThenKeptEvenIfTheFrameworkForgetsIt() throws ModelException {
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 0);
        FoundationModelsBackend backend = stubBackend(new Host("Mac OS X", "27.1", Optional.empty()));
        assertEquals(8192, backend.contextSize());
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 8192);
        assertEquals(OptionalInt.of(5), backend.countTokens("hello"));
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), 0);
        assertEquals(8192, backend.contextSize());
        assertEquals(OptionalInt.of(5), backend.countTokens("hello"));
    }

    @Test
    void aNegativeContextSizeIsUnknownToo() throws ModelException {
        StubShim.contextSize(fmshim_h.FMSHIM_OK(), -1);
        FoundationModelsBackend backend = stubBackend(LINUX);
        assertEquals(4096, backend.contextSize());
        assertEquals(OptionalInt.empty(), backend.countTokens("hello"));
    }

    @Test
    void macOs26ReportedAs16UnderSystemVersionCompatIsNotRefused() {
        // No shim beside the jars here: the backend gets as far as looking for one, past the version gate.
        FoundationModelsBackend backend = new FoundationModelsBackend(Map.of(), new Host("Mac OS X", "16.0", Optional.empty()));
        ModelException problem = problem(backend);
        assertEquals(ErrorCode.INTERNAL_ERROR, problem.code());
        assertEquals("Cannot load the Foundation Models shim library libfmshim.dylib", problem.lines().get(0));
    }

    @Test
    void theCompatibilityVersionOfMacOs264NamesTheVariantOf264() {
        StubShim.variant(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), null);
        assertEquals("AFM macOS 26.4", stubBackend(new Host("Mac OS X", "16.4", Optional.empty())).variant());
        assertEquals("AFM macOS 26.0\u201326.3", stubBackend(new Host("Mac OS X", "16.3", Optional.empty())).variant());
    }

    @Test
    void macOs11ReportedAs1016IsStillBefore26() {
        FoundationModelsBackend backend = new FoundationModelsBackend(Map.of(), new Host("Mac OS X", "10.16", Optional.empty()));
        assertEquals(Optional.of("macOS 10.16 has no Foundation Models; it needs macOS 26 or newer"),
                problem(backend).detail());
    }

    @Test
    void anEmptyShimVariableIsUnset() {
        FoundationModelsBackend backend = new FoundationModelsBackend(Map.of("AII_SHIM_LIBRARY", ""), LINUX);
        assertTrue(problem(backend).getMessage().startsWith("Apple Intelligence is not available on this system\n"));
    }

    @Test
    void tokensAreCountedByTheShim() throws ModelException {
        // The stub counts one token per UTF-8 byte.
        assertEquals(OptionalInt.of(6), stubBackend(LINUX).countTokens("h\u00e9llo"));
    }

    @Test
    void tokenCountingIsEmptyWhenUnsupported() throws ModelException {
        StubShim.tokenCount(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), null);
        assertEquals(OptionalInt.empty(), stubBackend(LINUX).countTokens("hello"));
    }

    @Test
    void aFailedTokenCountIsATypedError() {
        StubShim.tokenCount(fmshim_h.FMSHIM_ERR_ASSETS_UNAVAILABLE(), "assetsUnavailable: gone");
        ModelException e = assertThrows(ModelException.class, () -> stubBackend(LINUX).countTokens("hello"));
        assertEquals(ErrorCode.ASSETS_UNAVAILABLE, e.code());
        assertEquals("Model assets became unavailable mid-session", e.getMessage());
        assertEquals(Optional.of("assetsUnavailable: gone"), e.detail());
    }

    @Test
    void languagesLoseTheirScriptSubtagAndAreSorted() {
        StubShim.languages("[\"zh-Hans-CN\",\"en-US\",\"de-DE\",\"en-GB\",\"zh-Hant-TW\",\"ja\"]");
        assertEquals(Optional.of(List.of("de-DE", "en-GB", "en-US", "ja", "zh-CN", "zh-TW")),
                stubBackend(LINUX).supportedLanguages());
    }

    @Test
    void languagesLongerThanTheFirstBufferAreReadWhole() {
        List<String> languages = IntStream.range(0, 120)
                .mapToObj(i -> "" + (char) ('a' + i / 26) + (char) ('a' + i % 26)).toList();
        String json = languages.reversed().stream().map(l -> "\"" + l + "-Latn-US\"")
                .collect(Collectors.joining(",", "[", "]"));
        assertTrue(json.length() > 1000);
        StubShim.languages(json);
        List<String> expected = languages.stream().map(l -> l + "-US").toList();
        assertEquals(Optional.of(expected), stubBackend(LINUX).supportedLanguages());
    }

    @Test
    void variantComesFromTheFrameworkWhenItNamesOne() {
        StubShim.variant(fmshim_h.FMSHIM_OK(), "AFM 3 Core");
        assertEquals("AFM 3 Core", stubBackend(LINUX).variant());
    }

    @Test
    void aVariantLongerThanTheFirstBufferIsReadWhole() {
        String name = "AFM " + "\u00e9".repeat(300);
        StubShim.variant(fmshim_h.FMSHIM_OK(), name);
        assertEquals(name, stubBackend(LINUX).variant());
    }

    @Test
    void withoutAFrameworkVariantMacOs264AndLaterIsAfm264() {
        StubShim.variant(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), null);
        assertEquals("AFM macOS 26.4", stubBackend(new Host("Mac OS X", "26.4", Optional.empty())).variant());
        assertEquals("AFM macOS 26.4", stubBackend(new Host("Mac OS X", "26.5.1", Optional.empty())).variant());
    }

    @Test
    void withoutAFrameworkVariantEarlierMacOs26IsTheRangeWithAnEnDash() {
        StubShim.variant(fmshim_h.FMSHIM_ERR_UNSUPPORTED(), null);
        assertEquals("AFM macOS 26.0\u201326.3", stubBackend(new Host("Mac OS X", "26.3.1", Optional.empty())).variant());
        assertEquals("AFM macOS 26.0\u201326.3", stubBackend(new Host("Mac OS X", "26", Optional.empty())).variant());
    }

    @Test
    void aSessionOffersAtMostOneTool() {
        dev.aii.model.ToolSpec a = new dev.aii.model.ToolSpec("a", "A", "{}", json -> "");
        dev.aii.model.ToolSpec b = new dev.aii.model.ToolSpec("b", "B", "{}", json -> "");
        ModelException e = assertThrows(ModelException.class,
                () -> stubBackend(LINUX).openSession(new SessionOptions(Optional.empty(), List.of(a, b))));
        assertEquals("A Foundation Models session offers at most one tool", e.getMessage());
        assertEquals(Optional.of("a, b"), e.detail());
        assertEquals(0, StubShim.liveSessions());
    }

    @Test
    void theBackendIsBuiltFromAnEnvironmentMapAlone() {
        FoundationModelsBackend backend = FoundationModelsBackend.fromEnvironment(StubShim.environment());
        assertTrue(backend.availability().isAvailable());
        assertFalse(backend.variant().isEmpty());
    }
}
