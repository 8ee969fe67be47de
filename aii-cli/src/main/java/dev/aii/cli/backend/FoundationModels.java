package dev.aii.cli.backend;

import dev.aii.ffm.FoundationModelsBackend;
import dev.aii.model.LanguageModel;
import java.util.Map;

/** Opens the Foundation Models backend; a class of its own so native code loads only when used. */
final class FoundationModels {

    private FoundationModels() {
    }

    static LanguageModel open(Map<String, String> env) {
        return FoundationModelsBackend.fromEnvironment(env);
    }
}
