/**
 * End-to-end tests: the real {@code bin/aii}, as a child process, against a
 * fake OpenAI-compatible server on loopback or the gcc-built C stub of the
 * Foundation Models shim, with approvals answered through a real
 * pseudo-terminal. They run in {@code verify}, after {@code package} has put
 * the jars in {@code aii-cli/target/lib}.
 */
package dev.aii.cli.e2e;
