/**
 * One owner per native handle of llama.cpp and of the shim (models, contexts,
 * chat templates, turns, samplers), the loading of the libraries, and the
 * translation of native status into {@link dev.aii.llamacpp.engine.NativeFailure}.
 * Nothing outside this package touches a {@code MemorySegment}.
 */
package dev.aii.llamacpp.engine;
