package dev.aii.cli.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The command line's flags, as parsed by picocli. Only values: the decisions are in {@link dev.aii.cli.Aii}. */
@Command(name = "aii",
        // Rendered wide, one line an entry: HelpLayout fits it to the terminal at run time.
        usageHelpWidth = HelpLayout.RENDER_WIDTH,
        sortOptions = false,
        headerHeading = "",
        synopsisHeading = "Usage: ",
        customSynopsis = {
            "aii [-ijx] [-f FILE] [--model NAME] [--] [PROMPT...]",
            "       aii -m [-j] [--model NAME]",
            "       aii --list-allowed | --reset-allowed | --version | --help",
            "       aii [-j] --check [--] PROGRAM [ARG...]"
        },
        description = {
            "Ask a language model on this machine from the command line. The prompt is the words after the "
                    + "options, joined by spaces, or piped stdin, or both (stdin then becomes the content the prompt "
                    + "is about). With -x the model may run programs: allowlisted ones at once, anything else after "
                    + "you approve it."
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
            "  3    model unavailable: unavailable_not_supported, unavailable_not_enabled, "
                    + "unavailable_downloading, unavailable_server, unavailable_model",
            "  4    generation failed: assets_unavailable, guardrail_violation, unsupported_language, "
                    + "context_exceeded, rate_limited",
            "  129  ended by SIGHUP or a terminal that closed; what was running is stopped",
            "  130  interrupted by Ctrl-C (one-shot mode)",
            "  141  stdout closed by its reader (aii ... | head -1); nothing is reported",
            "  143  ended by SIGTERM; what was running is stopped",
            "",
            "Environment:",
            "  AII_BASE_URL      base URL of an OpenAI-compatible server (.../v1), used instead of Apple's "
                    + "Foundation Models, e.g. http://localhost:11434/v1 (Ollama); when unset and Foundation Models "
                    + "is not available, aii tries http://127.0.0.1:11434/v1 and http://127.0.0.1:8080/v1",
            "  AII_MODEL         model name on that server (default: its only model); --model overrides it",
            "  AII_API_KEY       bearer token for the server AII_BASE_URL names",
            "  AII_CONTEXT_SIZE  context window in tokens, overriding discovery",
            "  AII_MODEL_FILE    GGUF model file to run in this process (--model-file overrides it)",
            "  AII_THREADS       threads for a model in the process (default: the cores that are not busy)",
            "  AII_TIMEOUT       seconds to wait for the server's first byte, and for each later one (default 120)",
            "  AII_HISTORY       off: -i keeps no line history (default: ~/.config/aii/history)",
            "  AII_SHIM_LIBRARY  path of the Foundation Models shim library",
            "  AII_DEBUG         1 prints stack traces for internal errors",
            "  AII_AUDIT_LOG     file to append one JSON line to for every command the model asks for",
            "  AII_JAVA_OPTS     extra options for the JVM, e.g. -Xlog:class+load",
            "  JAVA_HOME         the JDK to run on (else the java on PATH, else the usual places)",
            "  PATH              where -x and --check find programs",
            "  COLUMNS           the width of --help (default 80)",
            "  TERM              the terminal's type, for line editing in -i",
            "  HOME              ~ in paths; the allow file is ~/.config/aii/allow",
            "",
            "Files:",
            "  ~/.config/aii/allow         the rules of -x, one argv prefix a line",
            "  ~/.config/aii/.allow.lock   locked while a rule is added to the allow file",
            "  ~/.config/aii/history       the line history of -i (mode 0600, the last 1,000 lines)",
            "",
            "Examples:",
            "  aii what is the capital of France",
            "  git diff | aii write a commit message for this",
            "  aii -f notes.md what are the open questions",
            "  aii --model llama3.2 -i",
            "  aii -x how much free disk space do I have",
            "",
            "Interactive mode: /new resets the conversation, /quit or /exit (or Ctrl-D) leaves."
        })
public final class Options {

    @Parameters(arity = "0..*", paramLabel = "PROMPT",
            description = "Prompt (one-shot), or system prompt when used with --interactive")
    List<String> words = new ArrayList<>();

    /** The positional words joined by single spaces, or null when there are none; set by {@link Flags#parse}. */
    public String prompt;

    @Option(names = {"-i", "--interactive"}, arity = "0", description = "Start interactive conversational mode")
    public boolean interactive;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "File to attach as context (one-shot only)")
    public String file;

    @Option(names = {"-j", "--json"}, arity = "0", description = "Output errors as JSONL to stderr")
    public boolean json;

    @Option(names = {"-m", "--model-info"}, arity = "0",
            description = "Show context size, model variant and supported languages, then exit")
    public boolean modelInfo;

    @Option(names = "--model", paramLabel = "NAME",
            description = "Model to use on the model server (overrides AII_MODEL)")
    public String model;

    @Option(names = "--model-file", paramLabel = "PATH",
            description = "GGUF model file to run in this process with llama.cpp, no server needed")
    public String modelFile;

    @Option(names = {"-x", "--exec"}, arity = "0", description = "Let the model run programs")
    public boolean exec;

    @Option(names = "--list-allowed", arity = "0", description = "Print the effective exec allowlist and exit")
    public boolean listAllowed;

    @Option(names = "--reset-allowed", arity = "0", description = "Delete the exec allowlist config file and exit")
    public boolean resetAllowed;

    @Option(names = "--check", arity = "0",
            description = "Show what -x would do with PROGRAM [ARG...] and exit; nothing runs")
    public boolean check;

    /** With {@code --check}: the program and its arguments, which picocli never sees (see {@link CheckArguments}). */
    public List<String> checkCommand = List.of();

    @Option(names = "--version", arity = "0", versionHelp = true, description = "Print the version and exit")
    public boolean version;

    @Option(names = {"-h", "--help"}, arity = "0", usageHelp = true, description = "Show this help and exit")
    public boolean help;

    /** {@code s} when it is a non-empty string, else none (an empty prompt or system prompt is none). */
    public static Optional<String> emptyToNone(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    /** Whether any argument asks for JSON errors, for reporting a parse failure (before parsing succeeded). */
    public static boolean jsonRequested(List<String> args) {
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
            if (arg.equals("--file") || arg.equals("--model") || arg.equals("--model-file")) {
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
