/**
 * Foundation Models through the shim: loading the library, one owner per
 * native handle, the callbacks, and the translation of statuses into the
 * errors of the command line contract. Not exported; the public face is
 * {@link dev.aii.ffm.FoundationModelsBackend}.
 */
package dev.aii.ffm.fm;
