/**
 * Test support shared by the modules' tests: the
 * {@link dev.aii.testkit.CommandRunnerContract contract} every command runner
 * passes, a {@link dev.aii.testkit.PtyDriver pseudo-terminal driver},
 * scripted terminals, recording exec output, and
 * {@link dev.aii.testkit.FakeOpenAiServer}, a loopback OpenAI-compatible
 * server that plays scripted {@link dev.aii.testkit.Reply replies} in the
 * {@link dev.aii.testkit.Wire wire styles} of real servers and records what
 * it receives.
 */
package dev.aii.testkit;
