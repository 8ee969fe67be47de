/**
 * Conversations with an in-process model: the history as chat messages, the
 * tool loop, streaming the text of an answer as the shim parses it, and the
 * reuse of the KV cache from one turn to the next.
 */
package dev.aii.llamacpp.chat;
