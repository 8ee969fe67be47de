package dev.aii.cli;

import dev.aii.cli.exec.ExecSetup;
import dev.aii.cli.flags.Options;
import dev.aii.cli.input.TextPieces;
import dev.aii.cli.output.CliErrors;
import dev.aii.cli.output.Console;
import dev.aii.cli.output.RepetitionDetector;
import dev.aii.exec.RunCommandTool;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** One prompt, one answer: the content of {@code --file} or piped stdin composed with the prompt. */
final class OneShot extends Mode {

    /** Exit code after Ctrl-C. */
    static final int INTERRUPTED_EXIT = 130;

    OneShot(Host host, Options options, LanguageModel model, Console console) {
        super(host, options, model, console);
    }

    @Override
    int run() throws ModelException {
        if (options.file != null && host.stdio().stdinPiped()) {
            throw CliErrors.conflict(CliErrors.FILE_AND_STDIN);
        }
        List<String> content = options.file != null ? readFile(options.file) : readStdin();
        Optional<String> prompt = compose(Options.emptyToNone(options.prompt), content);
        if (prompt.isEmpty()) {
            return 0;
        }
        int contextSize = model.contextSize();
        OptionalInt tokens = model.countTokens(prompt.get());
        if (tokens.isPresent() && tokens.getAsInt() >= contextSize) {
            throw ModelException.preflightContextExceeded(tokens.getAsInt(), contextSize);
        }
        Optional<RunCommandTool> tool = ExecSetup.toolFor(options, host, console);
        SessionOptions sessionOptions = ExecSetup.sessionOptions(host, Optional.empty(), tool, console);
        try (Session session = model.openSession(sessionOptions)) {
            RepetitionDetector.primeInBackground();
            Answerer.Outcome outcome = new Answerer(console, tool, contextSize, host.signals())
                    .answer(session, prompt.get(), host.interrupts());
            // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
            if (outcome instanceof Answerer.Outcome.Failed f) {
                return console.report(f.error());
            }
            return outcome instanceof Answerer.Outcome.Interrupted
                    ? host.signals().exitCode().orElse(INTERRUPTED_EXIT)
                    : 0;
        }
    }

    /**
     * The prompt the model gets: both → the prompt, a blank line and the
     * content between markers; one → that one; neither → nothing. The content
     * comes as the pieces it was read in (see {@link TextPieces}); an empty
     * content counts as none.
     */
    static Optional<String> compose(Optional<String> prompt, List<String> content) {
        if (content.isEmpty()) {
            return prompt;
        }
        return Optional.of(prompt.isPresent()
                ? TextPieces.join(prompt.get() + "\n\n--- CONTENT ---\n", content, "\n--- END CONTENT ---")
                : TextPieces.join("", content, ""));
    }

    private List<String> readFile(String pathAsGiven) throws ModelException {
        Path path = host.workingDirectory().resolve(pathAsGiven);
        try (InputStream in = Files.newInputStream(path)) {
            return TextPieces.read(in, true);
        } catch (CharacterCodingException e) {
            throw CliErrors.cannotReadFile(pathAsGiven, "not valid UTF-8");
        } catch (TextPieces.TooLarge e) {
            throw CliErrors.cannotReadFile(pathAsGiven, e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw CliErrors.cannotReadFile(pathAsGiven, e instanceof IOException io
                    ? dev.aii.config.IoReasons.describe(io) : e.getMessage());
        } catch (OutOfMemoryError e) {
            // A file larger than memory: the pieces are gone with the exception.
            throw CliErrors.cannotReadFile(pathAsGiven, "too large to read into memory");
        }
    }

    private List<String> readStdin() throws ModelException {
        if (host.stdio().stdinTerminal()) {
            return List.of();
        }
        try {
            // Malformed UTF-8 becomes U+FFFD, as a replacing decoder does.
            return TextPieces.read(host.in(), false);
        } catch (IOException | OutOfMemoryError e) {
            throw CliErrors.internal("Cannot read stdin", e);
        }
    }
}
