/** The backend for OpenAI-compatible chat completions servers. */
package dev.aii.openai;
