package dev.aii.cli;

import dev.aii.model.LanguageModel;
import java.util.List;
import java.util.Optional;

/** The three lines of {@code --model-info}. */
final class ModelInfo {

    private ModelInfo() {
    }

    static String text(LanguageModel model) {
        Optional<List<String>> languages = model.supportedLanguages();
        String languageLine = languages
                .map(list -> "Supported languages (" + list.size() + "): " + String.join(", ", list))
                .orElse("Supported languages: unknown");
        return "Context window: " + model.contextSize() + " tokens\n"
                + "Model variant: " + model.variant() + "\n"
                + languageLine + "\n";
    }
}
