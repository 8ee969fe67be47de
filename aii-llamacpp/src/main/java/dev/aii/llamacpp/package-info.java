/**
 * The in-process backend: {@link dev.aii.llamacpp.LlamaCppModel} runs a GGUF
 * file through llama.cpp as a {@link dev.aii.model.LanguageModel};
 * {@link dev.aii.llamacpp.OllamaStore} finds the GGUF file of a model that
 * Ollama has pulled.
 */
package dev.aii.llamacpp;
