/**
 * The exec policy: argv-prefix and exact rules, resolution of a program to a
 * path, matching, what "always" stores (a prefix for a program with a guard
 * table, the exact command for any other) and when it is offered (the
 * never-always set, followed through links and families of names), and the
 * rendering that shows a command to a human. The argument guards, read the
 * way each program's own parser reads it, live in the unexported
 * {@code dev.aii.policy.guard}.
 *
 * <p>Everything here is pure: the file system is reached only through the
 * {@link dev.aii.policy.FileProbe} of an {@link dev.aii.policy.Environment},
 * so decisions are reproducible and testable without touching a disk.
 * {@link dev.aii.policy.ExecPolicy} is the entry point.
 */
package dev.aii.policy;
