/**
 * The choice of the model: {@link dev.aii.cli.backend.Backends} opens the
 * OpenAI-compatible server {@code AII_BASE_URL} names, Foundation Models, or a
 * server found on this machine, and warns about settings the backend would
 * pass over; each backend is reached through a class of its own, so that its
 * code loads only when it is used. {@link dev.aii.cli.backend.ModelName} is how
 * the command line names the model it talks to.
 */
package dev.aii.cli.backend;
