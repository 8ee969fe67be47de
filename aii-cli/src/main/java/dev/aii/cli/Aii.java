package dev.aii.cli;

import dev.aii.cli.backend.Backends;
import dev.aii.cli.backend.ModelName;
import dev.aii.cli.backend.OpenAiModels;
import dev.aii.cli.exec.ExecSupply;
import dev.aii.cli.flags.CheckArguments;
import dev.aii.cli.flags.Columns;
import dev.aii.cli.flags.Flags;
import dev.aii.cli.flags.HelpText;
import dev.aii.cli.flags.ModelInfoFlag;
import dev.aii.cli.flags.Options;
import dev.aii.cli.flags.QuickFlags;
import dev.aii.cli.flags.Shortcut;
import dev.aii.cli.output.CliErrors;
import dev.aii.cli.output.Console;
import dev.aii.cli.output.ServerNotes;
import dev.aii.cli.output.Ticker;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code aii} command: parses the flags and dispatches, in the order of
 * the command line contract, to check, list/reset, help, model info,
 * interactive or one-shot mode.
 *
 * {@snippet :
 * int exit = new Aii(host).run(args);   // only Main calls System.exit
 * }
 */
public final class Aii {

    static final String VERSION_LINE = "aii " + Builtins.VERSION + "\n";

    /** The warning for {@code --model} when the model is Foundation Models, which has no others. */
    static final String MODEL_WITHOUT_SERVER =
            "--model is for model servers; Apple Intelligence has one model (set AII_BASE_URL to use a server)";

    private final Host host;
    private final Supplier<Ticker> tickers;

    public Aii(Host host) {
        // start-up idiom: a lambda, not a method reference (DEVELOPERS.md)
        this(host, () -> Ticker.daemon());
    }

    /** @param tickers makes the clock of the run's console (a test's clock, stepped by hand) */
    Aii(Host host, Supplier<Ticker> tickers) {
        this.host = host;
        this.tickers = tickers;
    }

    /** Runs the command and returns its exit code. */
    public int run(String[] args) {
        Shortcut shortcut = Shortcut.of(args, host.stdio().stdinTerminal());
        Options options = null;
        Optional<ModelException> usageError = Optional.empty();
        if (shortcut == Shortcut.NONE) {
            CheckArguments split = CheckArguments.split(List.of(args));
            usageError = ModelInfoFlag.misuse(split.own());
            if (usageError.isEmpty()) {
                // The usual command lines without picocli (see QuickFlags); picocli for the rest, and for errors.
                options = QuickFlags.parse(split.own());
            }
            if (options == null) {
                Options parsed = new Options();
                options = parsed;
                if (usageError.isEmpty()) {
                    usageError = Flags.parse(parsed, split.own().toArray(new String[0])).map(CliErrors::usage);
                }
            }
            options.checkCommand = split.command().orElse(List.of());
            if (usageError.isPresent()) {
                // What picocli left is not to be trusted: JSON as far as the arguments ask for it.
                options.json = Options.jsonRequested(split.own());
                options.exec = false;
            }
        }
        if (options == null) {
            options = new Options();
        }
        // Nothing has been written yet: the one console of this run is made with what the flags said.
        Console console = new Console(host.out(), host.err(), host.stdio().stdoutTerminal(),
                host.stdio().stderrTerminal() ? Columns.of(host.env()) : 0, options.json, options.exec, host.debug(),
                tickers.get());
        int exit = run(shortcut, options, usageError, console);
        // Whatever the run made of it, SIGTERM or SIGHUP decides how it ends (cli.md 9.7).
        return host.signals().exitCode().orElse(exit);
    }

    private int run(Shortcut shortcut, Options options, Optional<ModelException> usageError, Console console) {
        try {
            if (usageError.isPresent()) {
                return console.report(usageError.get());
            }
            return switch (shortcut) {
                // The commands whose whole command line is one flag (or none, on a terminal): answered
                // without picocli, so that they start fast, with the outcome the full parse gives.
                case HELP -> help(console, host);
                case VERSION -> version(console);
                case LIST_ALLOWED -> listAllowed(console);
                case NONE -> options.help ? help(console, host)
                        : options.version ? version(console)
                        : dispatch(options, console);
            };
        } catch (ModelException e) {
            return console.report(e);
        } catch (RuntimeException | Error e) {
            return console.report(CliErrors.internal("aii failed unexpectedly", e));
        } finally {
            console.close();
        }
    }

    private int dispatch(Options o, Console console) throws ModelException {
        boolean hasPrompt = o.prompt != null;
        if (o.check) {
            if (hasPrompt || o.interactive || o.exec || o.file != null || o.modelInfo || o.listAllowed || o.resetAllowed) {
                throw CliErrors.conflict(CliErrors.CHECK_CONFLICT);
            }
            if (o.checkCommand.isEmpty()) {
                throw CliErrors.usage(CliErrors.CHECK_NEEDS_PROGRAM);
            }
            return check(o, console);
        }
        if (o.listAllowed || o.resetAllowed) {
            if (hasPrompt || o.interactive || o.exec || o.file != null || (o.listAllowed && o.resetAllowed)) {
                throw CliErrors.conflict(CliErrors.MANAGEMENT_CONFLICT);
            }
            return o.listAllowed ? listAllowed(console) : resetAllowed(console);
        }
        if (!hasPrompt && !o.interactive && o.file == null && !o.modelInfo && host.stdio().stdinTerminal()) {
            return help(console, host);
        }
        if (o.modelInfo && (hasPrompt || o.interactive || o.file != null)) {
            throw CliErrors.conflict(CliErrors.MODEL_INFO_CONFLICT);
        }
        // From here on aii talks to a model and may run commands: SIGTERM and SIGHUP stop them first.
        host.signals().listen();
        if (o.exec && host.exec() instanceof ExecSupply supply) {
            supply.prepare();
        }
        Map<String, String> env = modelEnvironment(o);
        Backends.timeoutWarning(env).ifPresent(warning -> console.warning(warning));
        try (LanguageModel model = openModel(env)) {
            ModelName name = ModelName.of(model);
            Backends.contextSizeWarning(env, name.baseUrl().isPresent() || name.inProcess()).ifPresent(warning -> console.warning(warning));
            Availability availability = model.availability(ServerNotes.waitingOnce(console));
            if (!availability.isAvailable()) {
                return console.report(availability.problem().orElseThrow());
            }
            name = ModelName.of(model);   // a server's model is known once it is available
            if (o.model != null && name.baseUrl().isEmpty() && !name.inProcess()) {
                console.warning(MODEL_WITHOUT_SERVER);
            }
            console.model(name.model());
            if (o.modelInfo) {
                console.print(ModelInfo.text(model));
                return 0;
            }
            if (o.interactive) {
                if (o.file != null) {
                    throw CliErrors.conflict(CliErrors.FILE_WITH_INTERACTIVE);
                }
                return new Interactive(host, o, model, console, name).run();
            }
            return new OneShot(host, o, model, console).run();
        }
    }

    /**
     * The environment the backend gets: the process's, with {@code --model} as
     * {@code AII_MODEL} and {@code --model-file} as {@code AII_MODEL_FILE}.
     */
    private Map<String, String> modelEnvironment(Options o) {
        if (o.model == null && o.modelFile == null) {
            return host.env();
        }
        Map<String, String> env = new HashMap<>(host.env());
        if (o.model != null) {
            env.put("AII_MODEL", o.model);
        }
        if (o.modelFile != null) {
            env.put(Backends.MODEL_FILE, o.modelFile);
        }
        return env;
    }

    private LanguageModel openModel(Map<String, String> env) throws ModelException {
        try {
            return host.models().open(env);
        } catch (RuntimeException e) {
            throw CliErrors.internal("Cannot start the model backend", e);
        }
    }

    private int listAllowed(Console console) throws ModelException {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(host.env()));
        AllowFile.Loaded loaded = file.load();
        loaded.warnings().forEach(warning -> console.warning(warning));   // start-up idiom: a lambda
        console.print(file.listing(loaded));
        return 0;
    }

    /** {@code --check}: the decision about one command with the allow file's rules, nothing run, exit 0. */
    private int check(Options o, Console console) throws ModelException {
        AllowFile.Loaded loaded = AllowFile.at(AllowFile.defaultPath(host.env())).load();
        loaded.warnings().forEach(warning -> console.warning(warning));   // start-up idiom: a lambda
        String executable = o.checkCommand.getFirst();
        List<String> arguments = o.checkCommand.subList(1, o.checkCommand.size());
        Decision decision = ExecPolicy.of(loaded.rules(), SystemEnvironment.of(host.env(), host.workingDirectory()))
                .evaluate(executable, arguments);
        console.print(o.json ? CheckJson.json(decision, executable, arguments) : Check.line(decision, executable) + "\n");
        return 0;
    }

    private int resetAllowed(Console console) throws ModelException {
        AllowFile file = AllowFile.at(AllowFile.defaultPath(host.env()));
        try {
            boolean removed = file.reset();
            console.print((removed ? AllowFile.RESET_REMOVED : AllowFile.RESET_NO_FILE) + "\n");
            return 0;
        } catch (IOException e) {
            throw ModelException.internal("Cannot remove config file: " + IoReasons.describe(e), file.path().toString(), e);
        }
    }

    /** The help, fitted to {@code COLUMNS} (80 when unset or not a width). */
    private static int help(Console console, Host host) throws ModelException {
        console.print(HelpText.get(Columns.of(host.env())));
        return 0;
    }

    private static int version(Console console) throws ModelException {
        console.print(VERSION_LINE);
        return 0;
    }
}
