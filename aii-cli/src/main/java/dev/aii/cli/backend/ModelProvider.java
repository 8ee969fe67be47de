package dev.aii.cli.backend;

import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import java.util.Map;

/** Opens the backend the environment names. */
@FunctionalInterface
public interface ModelProvider {

    /**
     * The backend for {@code env}.
     *
     * @throws ModelException when no backend applies (e.g. Foundation Models on Linux without AII_BASE_URL)
     */
    LanguageModel open(Map<String, String> env) throws ModelException;
}
