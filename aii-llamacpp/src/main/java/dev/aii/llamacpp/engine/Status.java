package dev.aii.llamacpp.engine;

import dev.aii.llamacpp.bindings.aiillama_h;

/** The status codes of {@code aiillama.h}, and the failures of libllama's own calls. */
public enum Status {
    INVALID_ARGUMENT,
    TEMPLATE,
    GRAMMAR,
    PARSE,
    DECODE,
    CONTEXT_FULL,
    STOPPED,
    INTERNAL,
    /** {@code llama_model_load_from_file} gave no model. */
    MODEL_LOAD,
    /** {@code llama_init_from_model} gave no context. */
    CONTEXT_INIT,
    /** The file is not one llama.cpp reads, as its first bytes show. */
    NOT_GGUF;

    /** The status of a shim code that is not {@code AIILLAMA_OK}. */
    static Status of(int code) {
        if (code == aiillama_h.AIILLAMA_ERR_INVALID_ARGUMENT()) {
            return INVALID_ARGUMENT;
        } else if (code == aiillama_h.AIILLAMA_ERR_TEMPLATE()) {
            return TEMPLATE;
        } else if (code == aiillama_h.AIILLAMA_ERR_GRAMMAR()) {
            return GRAMMAR;
        } else if (code == aiillama_h.AIILLAMA_ERR_PARSE()) {
            return PARSE;
        } else if (code == aiillama_h.AIILLAMA_ERR_DECODE()) {
            return DECODE;
        } else if (code == aiillama_h.AIILLAMA_ERR_CONTEXT_FULL()) {
            return CONTEXT_FULL;
        } else if (code == aiillama_h.AIILLAMA_ERR_STOPPED()) {
            return STOPPED;
        }
        return INTERNAL;
    }
}
