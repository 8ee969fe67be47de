package dev.aii.cli;

import dev.aii.exec.RunCommandTool;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Optional<String> content = options.file != null ? Optional.of(readFile(options.file)) : readStdin();
        Optional<String> prompt = compose(Options.emptyToNone(options.prompt), content.filter(c -> !c.isEmpty()));
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
            Answerer.Outcome outcome = new Answerer(console, tool, contextSize, host.signals())
                    .answer(session, prompt.get(), host.interrupts());
            // instanceof, not a pattern switch, which would bootstrap a class after the answer (see Check.line)
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
     * content between markers; one → that one; neither → nothing.
     */
    static Optional<String> compose(Optional<String> prompt, Optional<String> content) {
        if (prompt.isPresent() && content.isPresent()) {
            return Optional.of(prompt.get() + "\n\n--- CONTENT ---\n" + content.get() + "\n--- END CONTENT ---");
        }
        return prompt.isPresent() ? prompt : content;
    }

    private String readFile(String pathAsGiven) throws ModelException {
        Path path = host.workingDirectory().resolve(pathAsGiven);
        try {
            byte[] bytes = Files.readAllBytes(path);
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw CliErrors.cannotReadFile(pathAsGiven, "not valid UTF-8");
        } catch (IOException | RuntimeException e) {
            throw CliErrors.cannotReadFile(pathAsGiven, e instanceof IOException io
                    ? dev.aii.config.IoReasons.describe(io) : e.getMessage());
        } catch (OutOfMemoryError e) {
            // A device that never ends (/dev/zero) or a file larger than memory: the array was never made.
            throw CliErrors.cannotReadFile(pathAsGiven, "too large to read into memory");
        }
    }

    private Optional<String> readStdin() throws ModelException {
        if (host.stdio().stdinTerminal()) {
            return Optional.empty();
        }
        try {
            // Malformed UTF-8 becomes U+FFFD, as a replacing decoder does; the String decodes straight into
            // its own array (one byte a character for Latin-1 text), where a decoder's CharBuffer would
            // first take two bytes a character.
            return Optional.of(new String(host.in().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException | OutOfMemoryError e) {
            throw CliErrors.internal("Cannot read stdin", e);
        }
    }
}
