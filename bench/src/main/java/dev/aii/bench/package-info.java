/**
 * The benchmarks of docs/benchmarks.md that need a program of their own: the
 * policy at scale, text handling, output draining, a server to time aii
 * against, the first byte and the first tool call on the wire, and the
 * constructed llama models. Never shipped; {@code bench/run.sh} runs them.
 */
package dev.aii.bench;
