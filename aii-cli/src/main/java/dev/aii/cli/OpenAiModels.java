package dev.aii.cli;

import dev.aii.model.LanguageModel;
import dev.aii.openai.OpenAiBackend;
import dev.aii.openai.OpenAiConfig;

/** Opens the OpenAI-compatible backend; a class of its own so it loads only when used. */
final class OpenAiModels {

    private OpenAiModels() {
    }

    static LanguageModel open(OpenAiConfig config) {
        return OpenAiBackend.create(config);
    }
}
