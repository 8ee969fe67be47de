package dev.aii.cli;

import dev.aii.cli.flags.Options;
import dev.aii.cli.output.Console;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;

/** A way of talking to the model once it is available: one-shot or interactive. */
abstract sealed class Mode permits OneShot, Interactive {

    final Host host;
    final Options options;
    final LanguageModel model;
    final Console console;

    Mode(Host host, Options options, LanguageModel model, Console console) {
        this.host = host;
        this.options = options;
        this.model = model;
        this.console = console;
    }

    /** Runs the mode and returns the exit code. */
    abstract int run() throws ModelException;
}
