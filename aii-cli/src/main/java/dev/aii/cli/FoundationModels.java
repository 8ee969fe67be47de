package dev.aii.cli;

import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import java.util.Map;

/** Opens the Foundation Models backend; a class of its own so native code loads only when used. */
final class FoundationModels {

    private FoundationModels() {
    }

    static LanguageModel open(Map<String, String> env) throws ModelException {
        throw ModelException.internal("PENDING-MERGE fm", null, null);
    }
}
