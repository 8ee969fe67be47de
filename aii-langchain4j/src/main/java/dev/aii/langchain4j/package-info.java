/**
 * aii's {@code run_command} tool for LangChain4j 1.x applications:
 * {@link dev.aii.langchain4j.RunCommandLangChain4j} turns a
 * {@link dev.aii.exec.RunCommandTool} into the specification and executor
 * that {@code AiServices} takes.
 */
package dev.aii.langchain4j;
