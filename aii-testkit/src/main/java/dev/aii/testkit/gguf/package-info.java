/**
 * Deterministic GGUF models that tests write themselves: {@link dev.aii.testkit.gguf.GgufWriter}
 * writes the file, {@link dev.aii.testkit.gguf.TinyModel} builds a model whose every answer is
 * fixed in advance, {@link dev.aii.testkit.gguf.Models} holds the scripts of the suites.
 */
package dev.aii.testkit.gguf;
