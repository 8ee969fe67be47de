/**
 * The guard tables: how each program aii knows reads its arguments, and
 * which of its argument forms write, run other programs, change the system,
 * wait forever, show other processes' environments or reach a device.
 */
package dev.aii.policy.guard;
