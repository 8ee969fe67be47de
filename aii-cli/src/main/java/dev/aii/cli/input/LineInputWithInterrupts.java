package dev.aii.cli.input;

import dev.aii.cli.process.Interrupts;

/** A line editor that also owns Ctrl-C while it is open. */
public interface LineInputWithInterrupts extends LineInput, Interrupts {
}
