/**
 * The backend SPI: a {@link dev.aii.model.LanguageModel} reports whether it
 * can answer, its context size and labels, and opens
 * {@link dev.aii.model.Session}s that stream answers and may call one tool.
 * Failures are {@link dev.aii.model.ModelException}s carrying an
 * {@link dev.aii.model.ErrorCode}, never strings to parse.
 */
package dev.aii.model;
