/**
 * jextract's bindings of the Foundation Models shim's header, {@code fmshim.h};
 * see the README beside them for the command that made them. Not exported.
 */
package dev.aii.ffm.fm.bindings;
