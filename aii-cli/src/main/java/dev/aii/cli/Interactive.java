package dev.aii.cli;

import dev.aii.cli.backend.ModelName;
import dev.aii.cli.exec.ExecSetup;
import dev.aii.cli.flags.Options;
import dev.aii.cli.input.HistoryFile;
import dev.aii.cli.input.LineInput;
import dev.aii.cli.input.LineInputWithInterrupts;
import dev.aii.cli.output.CliErrors;
import dev.aii.cli.output.Console;
import dev.aii.cli.output.RepetitionDetector;
import dev.aii.cli.process.Interrupts;
import dev.aii.exec.RunCommandTool;
import dev.aii.model.ErrorCode;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The conversation loop: a header, then {@code > } prompts until
 * {@code /quit}, {@code /exit} or end of input. {@code /new} clears the screen
 * and starts a fresh conversation; approvals made with "always" stay.
 */
final class Interactive extends Mode {

    /** The header's second line, whatever the model. */
    static final String HELP_LINE = "Type /new to reset, /quit to exit.\n";
    /** The header with Foundation Models. */
    static final String HEADER = ModelName.APPLE_BANNER + "\n" + HELP_LINE;
    static final String CLEAR_SCREEN = "\u001b[2J\u001b[H";
    static final String PROMPT = "> ";
    static final String NEW_HINT = "use /new to start a fresh conversation";

    private final String header;

    Interactive(Host host, Options options, LanguageModel model, Console console, ModelName name) {
        super(host, options, model, console);
        this.header = name.banner() + "\n" + HELP_LINE;
    }

    @Override
    int run() throws ModelException {
        Optional<RunCommandTool> tool = ExecSetup.toolFor(options, host, console);
        SessionOptions sessionOptions = ExecSetup.sessionOptions(host, Options.emptyToNone(options.prompt), tool, console);
        RepetitionDetector.primeInBackground();
        Answerer answerer = new Answerer(console, tool, model.contextSize(), host.signals());
        boolean editing = host.stdio().stdinTerminal() && host.stdio().stdoutTerminal();
        try (LineInputWithInterrupts editor = editing
                ? host.lineEditor().open(HistoryFile.ready(host.env(), host.home(), console::warning)) : null;
             LineInput input = editing ? editor : LineInput.plain(host.in(), console::linePrompt)) {
            Interrupts interrupts = editing ? editor : host.interrupts();
            console.print(header);
            Session session = model.openSession(sessionOptions);
            try {
                while (true) {
                    Optional<String> read = input.readLine(PROMPT);
                    if (read.isEmpty()) {
                        if (host.stdio().stdoutTerminal()) {
                            console.print("\n");
                        }
                        return 0;
                    }
                    String line = trim(read.get());
                    if (line.equals("/quit") || line.equals("/exit")) {
                        return 0;
                    }
                    if (line.equals("/new")) {
                        session.close();
                        console.print(CLEAR_SCREEN + header);
                        session = model.openSession(sessionOptions);
                        continue;
                    }
                    if (line.isEmpty()) {
                        continue;
                    }
                    answer(answerer, session, line, interrupts);
                    if (host.signals().exitCode().isPresent()) {
                        return host.signals().exitCode().getAsInt();   // SIGTERM or SIGHUP stopped the answer
                    }
                    if (console.stdoutFailure().isPresent()) {
                        return console.stdoutFailureExit();   // reported with the answer
                    }
                }
            } finally {
                session.close();
            }
        } catch (IOException e) {
            throw CliErrors.internal("Cannot read the next line", e);
        } catch (UncheckedIOException e) {
            throw CliErrors.internal(CliErrors.CANNOT_WRITE, e.getCause());
        }
    }

    private void answer(Answerer answerer, Session session, String line, Interrupts interrupts) {
        // start-up idiom: instanceof, not a pattern switch (DEVELOPERS.md)
        if (answerer.answer(session, line, interrupts) instanceof Answerer.Outcome.Failed f) {
            console.report(f.error());
            if (f.error().code() == ErrorCode.CONTEXT_EXCEEDED) {
                console.hint(NEW_HINT);
            }
        }
    }

    /** Strips spaces and tabs from both ends. */
    static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && (s.charAt(start) == ' ' || s.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) {
            end--;
        }
        return s.substring(start, end);
    }
}
