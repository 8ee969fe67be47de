/**
 * Native access: Foundation Models through the Swift shim, and POSIX processes
 * and the terminal through the C library. {@link dev.aii.ffm.Posix} says whether
 * the POSIX side works here and hands out its
 * {@link dev.aii.ffm.PosixCommandRunner} and {@link dev.aii.ffm.PosixTerminal}.
 */
package dev.aii.ffm;
