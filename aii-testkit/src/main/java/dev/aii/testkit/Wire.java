package dev.aii.testkit;

/**
 * How a {@link FakeOpenAiServer} shapes its stream chunks, after the servers
 * aii meets in practice.
 */
public enum Wire {

    /**
     * OpenAI and llama.cpp: a first chunk with {@code role}, then bare
     * content deltas; each tool call opens with a chunk carrying its index,
     * id and name with empty arguments, then its arguments in small
     * fragments; the finish reason comes in a last chunk with an empty delta.
     */
    OPENAI,

    /**
     * Ollama: {@code role} and {@code content} on every delta (content
     * {@code ""} when there is none), {@code system_fingerprint} on every
     * chunk, each tool call whole in a chunk of its own, and every call at
     * {@code index} 0 (what Ollama does for models without a dedicated
     * tool parser), told apart only by their ids.
     */
    OLLAMA,

    /**
     * apfel (Apple's on-device model behind an OpenAI-compatible server):
     * a role-only first chunk, {@code logprobs: null} on every choice;
     * content that could be a tool call is held back (the "gate"), so a
     * tool-calling answer has no text; all calls whole, numbered, in one
     * chunk with {@code finish_reason: null}, then a separate chunk with an
     * empty delta and {@code finish_reason: "tool_calls"}.
     */
    APFEL
}
