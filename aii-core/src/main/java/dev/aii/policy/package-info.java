/**
 * The exec policy: argv-prefix rules, resolution of a program to a path,
 * matching, argument guards (forms such as {@code date -s} that only a rule
 * spelling them out allows), "always" prefix derivation and eligibility, and
 * the rendering that shows a command to a human.
 *
 * <p>Everything here is pure: the file system is reached only through the
 * {@link dev.aii.policy.FileProbe} of an {@link dev.aii.policy.Environment},
 * so decisions are reproducible and testable without touching a disk.
 * {@link dev.aii.policy.ExecPolicy} is the entry point.
 */
package dev.aii.policy;
