/**
 * aii's {@code run_command} tool for Spring AI 2.x applications:
 * {@link dev.aii.springai.RunCommandToolCallback} is the
 * {@code ToolCallback} of a {@link dev.aii.exec.RunCommandTool}.
 */
package dev.aii.springai;
