package dev.aii.ffm.fm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The scripting functions of the gcc-built C stub of {@code fmshim.h}
 * ({@code src/test/c/fmshim_test.h}), for tests. The stub's state is
 * process-wide: every test that uses it starts with {@link #resetAll()}.
 */
public final class StubShim {

    /** The stub library built by the test build. */
    public static final Path PATH = Path.of(System.getProperty("aii.test.fmshim.stub"));

    private static final Linker LINKER = Linker.nativeLinker();
    // dlopen of the same file gives the same library, so these share the state the backend sees.
    private static final SymbolLookup LOOKUP = SymbolLookup.libraryLookup(PATH, Arena.global());

    private StubShim() {
    }

    /** An environment that points the backend at the stub. */
    public static Map<String, String> environment() {
        return Map.of(ShimLoader.ENVIRONMENT_VARIABLE, PATH.toString());
    }

    public static void resetAll() {
        call("fmshim_test_reset", FunctionDescriptor.ofVoid());
    }

    public static void availability(int reason) {
        call("fmshim_test_set_availability", FunctionDescriptor.ofVoid(JAVA_INT), reason);
    }

    public static void contextSize(int status, long tokens) {
        call("fmshim_test_set_context_size", FunctionDescriptor.ofVoid(JAVA_INT, JAVA_LONG), status, tokens);
    }

    public static void tokenCount(int status, String detail) {
        withText(detail, d -> call("fmshim_test_set_token_count", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS), status, d));
    }

    public static void languages(String json) {
        withText(json, j -> call("fmshim_test_set_languages", FunctionDescriptor.ofVoid(ADDRESS), j));
    }

    public static void variant(int status, String text) {
        withText(text, t -> call("fmshim_test_set_variant", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS), status, t));
    }

    public static void failNextCreate(int status, String detail) {
        withText(detail, d -> call("fmshim_test_fail_next_create", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS), status, d));
    }

    /** Replaces the script every respond plays with the steps {@code steps} adds. */
    public static void script(Runnable steps) {
        call("fmshim_test_script_clear", FunctionDescriptor.ofVoid());
        steps.run();
    }

    /**
     * After an early end of an answer, its generation winds down for {@code windDownMillis}; a respond meanwhile
     * waits for it, as the shim's answer gate does, for at most {@code graceMillis} after the stop.
     */
    public static void windDownAfterEarlyEnd(long windDownMillis, long graceMillis) {
        call("fmshim_test_wind_down_after_early_end", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG),
                windDownMillis, graceMillis);
    }

    /** Makes every respond wait on entry, before its answer starts, until {@link #openRespondGate()}. */
    public static void closeRespondGate() {
        call("fmshim_test_close_respond_gate", FunctionDescriptor.ofVoid());
    }

    public static void openRespondGate() {
        call("fmshim_test_open_respond_gate", FunctionDescriptor.ofVoid());
    }

    public static long waitingAtGate() {
        return (long) call("fmshim_test_waiting_at_gate", FunctionDescriptor.of(JAVA_LONG));
    }

    public static void delta(String text) {
        delta(text.getBytes(StandardCharsets.UTF_8));
    }

    public static void delta(byte[] bytes) {
        withBytes(bytes, b -> call("fmshim_test_script_delta", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), b, (long) bytes.length));
    }

    public static void resetEvent(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        withBytes(bytes, b -> call("fmshim_test_script_reset", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), b, (long) bytes.length));
    }

    public static void toolCall(String argumentsJson) {
        withText(argumentsJson, a -> call("fmshim_test_script_tool_call", FunctionDescriptor.ofVoid(ADDRESS), a));
    }

    /** A tool call that carries the id of the session's last answer that ended early. */
    public static void staleToolCall(String argumentsJson) {
        withText(argumentsJson, a -> call("fmshim_test_script_stale_tool_call", FunctionDescriptor.ofVoid(ADDRESS), a));
    }

    public static void echoToolResult(String prefix) {
        withText(prefix, p -> call("fmshim_test_script_echo_tool_result", FunctionDescriptor.ofVoid(ADDRESS), p));
    }

    public static void fail(int status, String detail) {
        withText(detail, d -> call("fmshim_test_script_fail", FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS), status, d));
    }

    public static void waitForCancel(long timeoutMillis) {
        call("fmshim_test_script_wait_for_cancel", FunctionDescriptor.ofVoid(JAVA_LONG), timeoutMillis);
    }

    public static void foreignDelta(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        withBytes(bytes, b -> call("fmshim_test_script_foreign_delta", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG), b, (long) bytes.length));
    }

    public static void lateDelta(String text, long delayMillis) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        withBytes(bytes, b -> call("fmshim_test_script_late_delta", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG),
                b, (long) bytes.length, delayMillis));
    }

    /** Waits for the late callbacks; what the last one got back from Java, or -1. */
    public static int joinLateCallbacks() {
        return (int) call("fmshim_test_join_late_callbacks", FunctionDescriptor.of(JAVA_INT));
    }

    public static long liveSessions() {
        return (long) call("fmshim_test_live_sessions", FunctionDescriptor.of(JAVA_LONG));
    }

    public static long cancelCalls() {
        return (long) call("fmshim_test_cancel_calls", FunctionDescriptor.of(JAVA_LONG));
    }

    public static long respondCalls() {
        return (long) call("fmshim_test_respond_calls", FunctionDescriptor.of(JAVA_LONG));
    }

    public static long eventsDelivered() {
        return (long) call("fmshim_test_events_delivered", FunctionDescriptor.of(JAVA_LONG));
    }

    /** What the stub's last respond returned, or -1. */
    public static int lastStatus() {
        return (int) call("fmshim_test_last_status", FunctionDescriptor.of(JAVA_INT));
    }

    public static long contractViolations() {
        return (long) call("fmshim_test_contract_violations", FunctionDescriptor.of(JAVA_LONG));
    }

    public static int lastForeignResult() {
        return (int) call("fmshim_test_last_foreign_result", FunctionDescriptor.of(JAVA_INT));
    }

    /** What the last create or respond received: {@code instructions}, {@code tool_name}, ...; null when it got NULL. */
    public static String lastText(String what) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(what);
            FunctionDescriptor descriptor = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG);
            long length = (long) call("fmshim_test_last_text", descriptor, name, MemorySegment.NULL, 0L);
            if (length < 0) {
                return null;
            }
            MemorySegment buffer = arena.allocate(length + 1);
            call("fmshim_test_last_text", descriptor, name, buffer, length + 1);
            return new String(buffer.asSlice(0, length).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        }
    }

    private interface WithSegment {
        void accept(MemorySegment segment);
    }

    private static void withText(String text, WithSegment body) {
        try (Arena arena = Arena.ofConfined()) {
            body.accept(text == null ? MemorySegment.NULL : arena.allocateFrom(text));
        }
    }

    private static void withBytes(byte[] bytes, WithSegment body) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, segment, JAVA_BYTE, 0, bytes.length);
            body.accept(segment);
        }
    }

    private static Object call(String name, FunctionDescriptor descriptor, Object... arguments) {
        MethodHandle handle = LINKER.downcallHandle(LOOKUP.findOrThrow(name), descriptor);
        try {
            return handle.invokeWithArguments(arguments);
        } catch (Throwable e) {
            throw new AssertionError("calling " + name + " failed", e);
        }
    }
}
