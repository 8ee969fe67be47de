package dev.aii.cli;

import dev.aii.exec.RunCommandTool;
import dev.aii.model.ErrorCode;
import dev.aii.model.LanguageModel;
import dev.aii.model.ModelException;
import dev.aii.model.Session;
import dev.aii.model.SessionOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The conversation loop: a header, then {@code > } prompts until
 * {@code /quit}, {@code /exit} or end of input. {@code /new} clears the screen
 * and starts a fresh conversation; approvals made with "always" stay.
 */
final class Interactive extends Mode {

    static final String HEADER = "aii \u2014 Apple Intelligence Interface\nType /new to reset, /quit to exit.\n";
    static final String CLEAR_SCREEN = "\u001b[2J\u001b[H";
    static final String PROMPT = "> ";
    static final String NEW_HINT = "use /new to start a fresh conversation";

    Interactive(Host host, Options options, LanguageModel model, AnswerWriter writer, ErrorReporter errors) {
        super(host, options, model, writer, errors);
    }

    @Override
    int run() throws ModelException {
        Optional<RunCommandTool> tool = ExecSetup.toolFor(options, host, errors, writer);
        SessionOptions sessionOptions = ExecSetup.sessionOptions(host, Aii.emptyToNone(options.prompt), tool);
        Answerer answerer = new Answerer(writer, tool, model.contextSize(), errors);
        boolean editing = host.stdio().stdinTerminal() && host.stdio().stdoutTerminal();
        try (Host.LineInputWithInterrupts editor = editing ? host.lineEditor().open() : null;
             LineInput input = editing ? editor : LineInput.plain(host.in(), host.out())) {
            Interrupts interrupts = editing ? editor : host.interrupts();
            write(HEADER);
            Session session = model.openSession(sessionOptions);
            try {
                while (true) {
                    Optional<String> read = input.readLine(PROMPT);
                    if (read.isEmpty()) {
                        if (host.stdio().stdoutTerminal()) {
                            write("\n");
                        }
                        return 0;
                    }
                    String line = trim(read.get());
                    if (line.equals("/quit") || line.equals("/exit")) {
                        return 0;
                    }
                    if (line.equals("/new")) {
                        session.close();
                        write(CLEAR_SCREEN + HEADER);
                        session = model.openSession(sessionOptions);
                        continue;
                    }
                    if (line.isEmpty()) {
                        continue;
                    }
                    answer(answerer, session, line, interrupts);
                    if (writer.failure().isPresent()) {
                        return ErrorCode.INTERNAL_ERROR.exitCode();   // reported with the answer
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
        switch (answerer.answer(session, line, interrupts)) {
            case Answerer.Outcome.Completed c -> { }
            case Answerer.Outcome.Interrupted i -> writer.prepareForTerminal();
            case Answerer.Outcome.Failed f -> {
                errors.report(f.error());
                if (f.error().code() == ErrorCode.CONTEXT_EXCEEDED) {
                    errors.hint(NEW_HINT);
                }
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

    private void write(String text) throws ModelException {
        writer.prepareForTerminal();
        try {
            host.out().write(text.getBytes(StandardCharsets.UTF_8));
            host.out().flush();
        } catch (IOException e) {
            throw CliErrors.internal(CliErrors.CANNOT_WRITE, e);
        }
    }
}
