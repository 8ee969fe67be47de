/** A GGUF model in the process: llama.cpp's C API through FFM, with aii's shim for chat templates and tool calls. */
module dev.aii.llamacpp {
    requires transitive dev.aii.core;
    requires com.fasterxml.jackson.core;

    exports dev.aii.llamacpp;
}
