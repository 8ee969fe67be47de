/**
 * The aii process: what its standard streams are, where Ctrl-C and Ctrl-Z
 * come from, what SIGTERM and SIGHUP stop ({@link dev.aii.cli.process.ProcessSignals}),
 * how it ends ({@link dev.aii.cli.process.ProcessEnd}), and
 * {@link dev.aii.cli.process.Training}, the program the launcher runs instead
 * of {@link dev.aii.cli.Main} to train the two startup caches.
 */
package dev.aii.cli.process;
