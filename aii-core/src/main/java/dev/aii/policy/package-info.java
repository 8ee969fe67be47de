/**
 * The exec policy: argv-prefix rules, resolution of a program to a path,
 * matching, argument guards (guard tables per program and implementation,
 * read the way each program's option parser reads them, and the operand
 * guard for paths that lead to devices or process files; forms that only a
 * rule spelling them out allows), "always" prefix derivation and
 * eligibility, and the rendering that shows a command to a human.
 *
 * <p>Everything here is pure: the file system is reached only through the
 * {@link dev.aii.policy.FileProbe} of an {@link dev.aii.policy.Environment},
 * so decisions are reproducible and testable without touching a disk.
 * {@link dev.aii.policy.ExecPolicy} is the entry point.
 */
package dev.aii.policy;
