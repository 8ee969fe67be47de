/** Native access: Foundation Models through the Swift shim, POSIX processes and the terminal. */
package dev.aii.ffm;
