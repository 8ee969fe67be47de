/**
 * What aii writes: {@link dev.aii.cli.output.Console}, the one owner of stdout
 * and stderr in a run, keeps their order and the rule that nothing shares a
 * line with the answer; beneath it the answer's writer (buffering, and
 * escaping under {@code -x}), the waiting line and its clock, the texts of
 * errors (plain or JSON lines) and of the notes about a server, the command
 * line's own errors, and the check that stops an answer repeating itself.
 */
package dev.aii.cli.output;
