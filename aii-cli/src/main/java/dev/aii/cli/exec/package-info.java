/**
 * The wiring of {@code -x}: {@link dev.aii.cli.exec.ExecSetup} builds the
 * {@code run_command} tool (the allow file, the approver, the audit log) over
 * an {@link dev.aii.cli.exec.ExecHost}, the runner and terminal of this
 * machine, which {@link dev.aii.cli.exec.ExecSupply} starts binding on a thread
 * of its own as soon as {@code -x} is read, so that only the first tool call
 * waits for it.
 */
package dev.aii.cli.exec;
