/** The OpenAI-compatible backend of aii. */
module dev.aii.openai {
    requires transitive dev.aii.core;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;

    exports dev.aii.openai;
}
