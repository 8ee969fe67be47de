/**
 * jextract's bindings of {@code llama.h} (the functions and structs aii uses)
 * and of the shim's {@code aiillama.h}; see the README beside them. Not exported.
 */
package dev.aii.llamacpp.bindings;
