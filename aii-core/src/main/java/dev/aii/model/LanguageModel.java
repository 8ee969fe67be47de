package dev.aii.model;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** A backend: a model that can answer prompts. */
public interface LanguageModel extends AutoCloseable {

    /** Whether the model can answer now; when not, the error to report. */
    Availability availability();

    /**
     * As {@link #availability()}, telling {@code notes} when the backend waits
     * for a server that is busy starting up ({@link TextSink#waiting}); its
     * other methods are not called. Backends that never wait need not override it.
     */
    default Availability availability(TextSink notes) {
        return availability();
    }

    /** The context window in tokens. */
    int contextSize();

    /**
     * The number of tokens {@code text} takes, when the backend can count;
     * empty when it cannot (the pre-flight check is then skipped).
     *
     * @throws ModelException when counting is supported but failed
     */
    OptionalInt countTokens(String text) throws ModelException;

    /** The model variant line of {@code --model-info}, e.g. {@code AFM macOS 26.4}. */
    String variant();

    /** Supported languages as BCP-47 tags, sorted; empty when the backend does not say. */
    Optional<List<String>> supportedLanguages();

    /**
     * Opens a conversation.
     *
     * @throws ModelException when the backend cannot open one
     */
    Session openSession(SessionOptions options) throws ModelException;

    /** Releases the backend's resources. */
    @Override
    default void close() {
    }
}
