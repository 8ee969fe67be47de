package dev.aii.cli;

import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.openai.OpenAiConfig;

/** Opens the OpenAI-compatible backend; a class of its own so it loads only when used. */
final class OpenAiModels {

    private OpenAiModels() {
    }

    static LanguageModel open(OpenAiConfig config) throws ModelException {
        throw ModelException.internal("PENDING-MERGE openai", null, null);
    }
}
