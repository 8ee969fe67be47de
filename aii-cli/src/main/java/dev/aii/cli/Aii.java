package dev.aii.cli;

import dev.aii.config.AllowFile;
import dev.aii.config.IoReasons;
import dev.aii.config.SystemEnvironment;
import dev.aii.model.Availability;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.policy.Builtins;
import dev.aii.policy.Decision;
import dev.aii.policy.ExecPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The {@code aii} command: parses the flags and dispatches, in the order of
 * the command line contract, to check, list/reset, help, model info,
 * interactive or one-shot mode.
 *
 * {@snippet :
 * int exit = new Aii(host).run(args);   // only Main calls System.exit
 * }
 */
final class Aii {

    static final String VERSION_LINE = "aii " + Builtins.VERSION + "\n";

    private final Host host;

    Aii(Host host) {
        this.host = host;
    }

    /** Runs the command and returns its exit code. */
    int run(String[] args) {
        Shortcut shortcut = Shortcut.of(args, host.stdio().stdinTerminal());
        if (shortcut != Shortcut.NONE) {
            return shortcut(shortcut);
        }
        Options options = new Options();
        CheckArguments split = CheckArguments.split(List.of(args));
        Optional<String> usageError = Flags.parse(options, split.own().toArray(String[]::new));
        if (usageError.isPresent()) {
            ErrorReporter early = new ErrorReporter(host.err(), Options.jsonRequested(split.own()), host.debug(), () -> { });
            return early.report(CliErrors.usage(usageError.get()));
        }
        options.checkCommand = split.command().orElse(List.of());
        AnswerWriter writer = new AnswerWriter(host.out(), host.stdio().stdoutTerminal(), options.exec);
        ErrorReporter errors = new ErrorReporter(host.err(), options.json, host.debug(), writer::prepareForTerminal);
        try {
            if (options.help) {
                return help();
            }
            if (options.version) {
                return version();
            }
            return dispatch(options, writer, errors);
        } catch (ModelException e) {
            return errors.report(e);
        } catch (RuntimeException | Error e) {
            return errors.report(CliErrors.internal("aii failed unexpectedly", e));
        }
    }

    /**
     * The commands whose whole command line is one flag (or none, on a
     * terminal): answered without picocli, so that they start fast. The
     * outcome is the one the full parse gives for the same arguments.
     */
    private int shortcut(Shortcut shortcut) {
        try {
            return switch (shortcut) {
                case HELP -> help();
                case VERSION -> version();
                case LIST_ALLOWED -> listAllowed(plainErrors());
                case NONE -> throw new IllegalStateException("not a shortcut");
            };
        } catch (ModelException e) {
            return plainErrors().report(e);
        } catch (RuntimeException | Error e) {
            return plainErrors().report(CliErrors.internal("aii failed unexpectedly", e));
        }
    }

    /** Errors as the shortcuts report them (none of them has --json), made only when needed. */
    private ErrorReporter plainErrors() {
        // Nothing of an answer is pending: a shortcut writes its output whole.
        return new ErrorReporter(host.err(), false, host.debug(), () -> { });
    }

    private int dispatch(Options o, AnswerWriter writer, ErrorReporter errors) throws ModelException {
        boolean hasPrompt = o.prompt != null;
        if (o.check) {
            if (hasPrompt || o.interactive || o.exec || o.file != null || o.modelInfo || o.listAllowed || o.resetAllowed) {
                throw CliErrors.conflict(CliErrors.CHECK_CONFLICT);
            }
            if (o.checkCommand.isEmpty()) {
                throw CliErrors.usage(CliErrors.CHECK_NEEDS_PROGRAM);
            }
            return check(o, errors);
        }
        if (o.listAllowed || o.resetAllowed) {
            if (hasPrompt || o.interactive || o.exec || o.file != null || (o.listAllowed && o.resetAllowed)) {
                throw CliErrors.conflict(CliErrors.MANAGEMENT_CONFLICT);
            }
            return o.listAllowed ? listAllowed(errors) : resetAllowed();
        }
        if (!hasPrompt && !o.interactive && o.file == null && !o.modelInfo && host.stdio().stdinTerminal()) {
            return help();
        }
        if (o.modelInfo && (hasPrompt || o.interactive || o.file != null)) {
            throw CliErrors.conflict(CliErrors.MODEL_INFO_CONFLICT);
        }
        Backends.contextSizeWarning(host.env()).ifPresent(errors::warning);
        Backends.timeoutWarning(host.env()).ifPresent(errors::warning);
        try (LanguageModel model = openModel()) {
            Availability availability = model.availability(ServerNotes.waitingOnce(errors));
            if (!availability.isAvailable()) {
                return errors.report(availability.problem().orElseThrow());
            }
            if (o.modelInfo) {
                write(ModelInfo.text(model));
                return 0;
            }
            if (o.interactive) {
                if (o.file != null) {
                    throw CliErrors.conflict(CliErrors.FILE_WITH_INTERACTIVE);
                }
                return new Interactive(host, o, model, writer, errors).run();
            }
            return new OneShot(host, o, model, writer, errors).run();
        }
    }

    private LanguageModel openModel() throws ModelException {
        try {
            return host.models().open(host.env());
        } catch (RuntimeException e) {
            throw CliErrors.internal("Cannot start the model backend", e);
        }
    }

    private int listAllowed(ErrorReporter errors) throws ModelException {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(host.env()));
        AllowFile.Loaded loaded = file.load();
        loaded.warnings().forEach(errors::warning);
        write(file.listing(loaded));
        return 0;
    }

    /** {@code --check}: the decision about one command with the allow file's rules, nothing run, exit 0. */
    private int check(Options o, ErrorReporter errors) throws ModelException {
        AllowFile.Loaded loaded = AllowFile.at(AllowFile.defaultPath(host.env())).load();
        loaded.warnings().forEach(errors::warning);
        String executable = o.checkCommand.getFirst();
        List<String> arguments = o.checkCommand.subList(1, o.checkCommand.size());
        Decision decision = ExecPolicy.of(loaded.rules(), SystemEnvironment.of(host.env(), host.workingDirectory()))
                .evaluate(executable, arguments);
        write(o.json ? Check.json(decision, executable, arguments) : Check.line(decision, executable) + "\n");
        return 0;
    }

    private int resetAllowed() throws ModelException {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(host.env()));
        try {
            boolean removed = file.reset();
            write(removed ? "aii: removed config; using built-in defaults\n"
                    : "aii: no config file; using built-in defaults\n");
            return 0;
        } catch (IOException e) {
            throw ModelException.internal("Cannot remove config file: " + IoReasons.describe(e), file.path().toString(), e);
        }
    }

    private int help() throws ModelException {
        write(HelpText.get());
        return 0;
    }

    private int version() throws ModelException {
        write(VERSION_LINE);
        return 0;
    }

    /** Writes what a command prints; a stdout that cannot take it (closed, a full disk) fails the command. */
    private void write(String text) throws ModelException {
        try {
            host.out().write(text.getBytes(StandardCharsets.UTF_8));
            host.out().flush();
        } catch (IOException e) {
            throw CliErrors.internal(CliErrors.CANNOT_WRITE, e);
        }
    }

    static Optional<String> emptyToNone(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
    }
}
