/**
 * What aii reads: piped stdin and {@code --file}, decoded a piece at a time
 * ({@link dev.aii.cli.input.TextPieces}), and the lines of interactive mode,
 * plain from a stream or edited on a terminal with JLine, with the history
 * file they keep.
 */
package dev.aii.cli.input;
