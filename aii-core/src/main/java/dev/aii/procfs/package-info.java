/**
 * Linux {@code /proc} as aii's two command runners read it: one parser of
 * {@code /proc/<pid>/stat}. Not API: exported to {@code dev.aii.ffm} only.
 */
package dev.aii.procfs;
