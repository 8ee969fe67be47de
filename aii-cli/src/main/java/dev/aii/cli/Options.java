package dev.aii.cli;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The command line's flags, as parsed by picocli. Only values: the decisions are in {@link Aii}. */
@Command(name = "aii",
        usageHelpWidth = 100,
        sortOptions = false,
        headerHeading = "",
        synopsisHeading = "Usage: ",
        customSynopsis = {
            "aii [-hijmx] [-f FILE] [--list-allowed | --reset-allowed] [--version] [--] [PROMPT]",
            "       aii [-j] --check [--] PROGRAM [ARG...]"
        },
        description = {
            "Ask a language model on this machine from the command line. The prompt is the argument,",
            "piped stdin, or both (stdin then becomes the content the prompt is about). With -x the",
            "model may run programs: allowlisted ones at once, anything else after you approve it."
        },
        descriptionHeading = "%n",
        parameterListHeading = "%n",
        optionListHeading = "",
        footerHeading = "%n",
        footer = {
            "Exit codes:",
            "  0    success, help, version, model info, list/reset, /quit, EOF",
            "  1    internal error (AII_DEBUG=1 prints the stack trace)",
            "  2    bad input: usage_error, file_not_found, conflicting_input",
            "  3    model unavailable: unavailable_not_supported, unavailable_not_enabled,",
            "       unavailable_downloading, unavailable_server, unavailable_model",
            "  4    generation failed: assets_unavailable, guardrail_violation, unsupported_language,",
            "       context_exceeded, rate_limited",
            "  130  interrupted by Ctrl-C (one-shot mode)",
            "",
            "Environment:",
            "  AII_BASE_URL      base URL of an OpenAI-compatible server (.../v1); used instead of",
            "                    Apple's Foundation Models, e.g. http://localhost:11434/v1 (Ollama)",
            "  AII_MODEL         model name on that server (default: its only model)",
            "  AII_API_KEY       bearer token for that server",
            "  AII_CONTEXT_SIZE  context window in tokens, overriding discovery",
            "  AII_TIMEOUT       seconds the server may take to start an answer or pause in one (120)",
            "  AII_SHIM_LIBRARY  path of the Foundation Models shim library",
            "  AII_DEBUG         1 prints stack traces for internal errors",
            "  AII_AUDIT_LOG     file to append one JSON line to for every command the model asks for",
            "  HOME              ~ in paths; the allow file is ~/.config/aii/allow",
            "",
            "Interactive mode: /new resets the conversation, /quit or /exit (or Ctrl-D) leaves."
        })
final class Options {

    @Parameters(index = "0", arity = "0..1", paramLabel = "PROMPT",
            description = "Prompt (one-shot), or system prompt when used with --interactive")
    String prompt;

    @Option(names = {"-i", "--interactive"}, arity = "0", description = "Start interactive conversational mode")
    boolean interactive;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "File to attach as context (one-shot only)")
    String file;

    @Option(names = {"-j", "--json"}, arity = "0", description = "Output errors as JSONL to stderr")
    boolean json;

    @Option(names = {"-m", "--model-info"}, arity = "0",
            description = "Show context size, model variant and supported languages, then exit")
    boolean modelInfo;

    @Option(names = {"-x", "--exec"}, arity = "0", description = "Let the model run programs")
    boolean exec;

    @Option(names = "--list-allowed", arity = "0", description = "Print the effective exec allowlist and exit")
    boolean listAllowed;

    @Option(names = "--reset-allowed", arity = "0", description = "Delete the exec allowlist config file and exit")
    boolean resetAllowed;

    @Option(names = "--check", arity = "0",
            description = "Show what -x would do with PROGRAM [ARG...] and exit; nothing runs")
    boolean check;

    /** With {@code --check}: the program and its arguments, which picocli never sees (see {@link CheckArguments}). */
    List<String> checkCommand = List.of();

    @Option(names = "--version", arity = "0", versionHelp = true, description = "Print the version and exit")
    boolean version;

    @Option(names = {"-h", "--help"}, arity = "0", usageHelp = true, description = "Show this help and exit")
    boolean help;

    /** Whether any argument asks for JSON errors, for reporting a parse failure (before parsing succeeded). */
    static boolean jsonRequested(List<String> args) {
        boolean fileValueNext = false;
        for (String arg : args) {
            if (fileValueNext) {
                fileValueNext = false;
                continue;
            }
            if (arg.equals("--")) {
                return false;
            }
            if (arg.equals("--json")) {
                return true;
            }
            if (arg.equals("--file")) {
                fileValueNext = true;
            } else if (arg.startsWith("-") && !arg.startsWith("--")) {
                for (int i = 1; i < arg.length(); i++) {
                    char c = arg.charAt(i);
                    if (c == 'j') {
                        return true;
                    }
                    if (c == 'f') {
                        fileValueNext = i == arg.length() - 1;
                        break;
                    }
                    if ("himx".indexOf(c) < 0) {
                        break;
                    }
                }
            }
        }
        return false;
    }
}
