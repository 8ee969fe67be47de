/**
 * The C library as aii uses it, through the Foreign Function and Memory API:
 * per-system constants, downcall handles with {@code errno} capture, spawning,
 * supervising a child's process group, and the terminal descriptor. Not
 * exported: nothing outside aii-ffm sees a descriptor, an error number or a
 * memory segment.
 */
package dev.aii.ffm.posix;
