/**
 * The {@code run_command} tool: one tool call from a model becomes one result
 * string, after validation, resolution, matching, a human's approval on the
 * terminal where needed, and a run under limits.
 * {@link dev.aii.exec.RunCommandTool} is the entry point; the terminal, the
 * process runner and the output are interfaces so that embedders and the
 * native layer can supply their own.
 */
package dev.aii.exec;
