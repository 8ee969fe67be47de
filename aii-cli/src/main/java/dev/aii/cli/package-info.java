/**
 * The aii command line: {@link dev.aii.cli.Main} wires the process to a
 * {@link dev.aii.cli.Host}, and {@link dev.aii.cli.Aii} dispatches, in the
 * order of the command line contract, to the modes: one-shot and interactive
 * (each answer run by {@link dev.aii.cli.Answerer}), {@code --model-info}
 * and {@code --check}. The concerns they use have a package each:
 * {@code flags} (the flags and the help), {@code output} (stdout, stderr and
 * the texts of errors), {@code exec} (what {@code -x} runs commands with),
 * {@code backend} (the choice of model), {@code input} (piped content,
 * {@code --file} and the lines of {@code -i}) and {@code process} (signals,
 * the way the process ends, the training of the startup caches). The module
 * exports none of it.
 */
package dev.aii.cli;
