package dev.aii.ffm.fm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.aii.ffm.fm.bindings.fmshim_h;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.ToolSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The loaded shim's functions that need no session, in Java terms: no status
 * code or memory segment leaves this class. Made by {@link ShimLoader}.
 */
public final class Shim {

    /** Room for a failure's detail; longer details are cut by the shim. */
    static final int DETAIL_CAPACITY = 2048;
    private static final int FIRST_CAPACITY = 256;

    Shim() {
    }

    /** Whether the model can answer, and if not, why. */
    public Reason availability() {
        return Reason.of(fmshim_h.fmshim_availability());
    }

    /** The context window in tokens; empty when the system does not report it. */
    public OptionalLong contextSize() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            int status = fmshim_h.fmshim_context_size(out);
            return status == fmshim_h.FMSHIM_OK() ? OptionalLong.of(out.get(JAVA_LONG, 0)) : OptionalLong.empty();
        }
    }

    /**
     * The number of tokens {@code text} takes; empty when the system cannot count.
     *
     * @param contextSize for the error when counting fails with {@code context_exceeded}
     */
    public OptionalLong tokenCount(String text, int contextSize) throws ModelException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment input = Memory.bytes(arena, bytes);
            MemorySegment out = arena.allocate(JAVA_LONG);
            MemorySegment detail = arena.allocate(DETAIL_CAPACITY);
            Status status = Status.of(fmshim_h.fmshim_token_count(input, bytes.length, out, detail, DETAIL_CAPACITY));
            return switch (status) {
                case OK -> OptionalLong.of(out.get(JAVA_LONG, 0));
                case UNSUPPORTED -> OptionalLong.empty();
                default -> throw Errors.of(status, detail.getString(0), contextSize);
            };
        }
    }

    /** The supported languages as the shim's JSON array; empty when it fails. */
    public Optional<String> supportedLanguagesJson() {
        return text(fmshim_h::fmshim_supported_languages);
    }

    /** The framework's name of the model variant; empty before macOS 27. */
    public Optional<String> variant() {
        return text(fmshim_h::fmshim_variant);
    }

    /**
     * Opens a session with the model.
     *
     * @throws ModelException when the shim cannot open it, e.g. for a schema it cannot use
     */
    public Session openSession(Optional<String> instructions, Optional<ToolSpec> tool, int contextSize)
            throws ModelException {
        NativeSession session = NativeSession.open(instructions, tool, contextSize);
        return new FmSession(session, tool.map(ToolSpec::name).orElse("session's"), contextSize);
    }

    /** A function of {@code fmshim.h} that writes text into a buffer with snprintf semantics. */
    @FunctionalInterface
    private interface TextFunction {
        long call(MemorySegment buffer, long capacity);
    }

    /** Calls a function with snprintf semantics, growing the buffer until the whole text fits. */
    private static Optional<String> text(TextFunction function) {
        long capacity = FIRST_CAPACITY;
        // The text could change between calls; a few rounds are plenty.
        for (int round = 0; round < 4; round++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = arena.allocate(capacity);
                long length = function.call(buffer, capacity);
                if (length < 0) {
                    return Optional.empty();
                }
                if (length < capacity) {
                    return Optional.of(new String(Memory.read(buffer, length), StandardCharsets.UTF_8));
                }
                capacity = length + 1;
            }
        }
        return Optional.empty();
    }
}
