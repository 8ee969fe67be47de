/**
 * Test support shared by the modules' tests: recording exec output, and
 * {@link dev.aii.testkit.FakeOpenAiServer}, a loopback OpenAI-compatible
 * server that plays scripted {@link dev.aii.testkit.Reply replies} in the
 * {@link dev.aii.testkit.Wire wire styles} of real servers and records what
 * it receives.
 */
package dev.aii.testkit;
