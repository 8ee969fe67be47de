// The shim of aiillama.h: each function is a try block around libllama-common or libllama, so that no C++
// exception ever reaches the JVM (one that did would end it). It holds no policy: what to say about a
// failure is decided in Java.

#include "aiillama.h"

#include "chat.h"
#include "common.h"
#include "ggml-backend.h"
#include "llama.h"
#include "log.h"
#include "sampling.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#ifdef __linux__
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

struct aiillama_chat {
    common_chat_templates_ptr templates;
};

struct aiillama_turn {
    common_chat_params params;
    common_chat_parser_params parser;
};

struct aiillama_sampler {
    common_sampler * sampler = nullptr;
};

struct aiillama_stop {
    std::atomic<int32_t> raised{0};
};

namespace {

void copy_out(const std::string & text, char * buffer, int64_t capacity, int64_t * length) {
    if (length != nullptr) {
        *length = (int64_t) text.size();
    }
    if (buffer == nullptr || capacity <= 0) {
        return;
    }
    size_t n = std::min((size_t) (capacity - 1), text.size());
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
}

int32_t fail(int32_t status, const std::string & why, char * error, int64_t capacity, int64_t * length) {
    copy_out(why, error, capacity, length);
    return status;
}

// Runs body, turning any exception into status (or AIILLAMA_ERR_INTERNAL for one that is not std::exception).
template <typename Body>
int32_t guarded(int32_t status, char * error, int64_t capacity, int64_t * length, Body body) {
    try {
        return body();
    } catch (const std::exception & e) {
        return fail(status, e.what(), error, capacity, length);
    } catch (...) {
        return fail(AIILLAMA_ERR_INTERNAL, "an exception that is not a std::exception", error, capacity, length);
    }
}

std::mutex log_lock;
std::string log_errors;
bool log_echo = false;
bool log_last_was_error = false;
constexpr size_t LOG_KEEP = 16384;

void on_log(enum ggml_log_level level, const char * text, void *) {
    if (text == nullptr) {
        return;
    }
    try {
        std::lock_guard<std::mutex> hold(log_lock);
        bool error = level == GGML_LOG_LEVEL_ERROR || (level == GGML_LOG_LEVEL_CONT && log_last_was_error);
        if (level != GGML_LOG_LEVEL_CONT) {
            log_last_was_error = level == GGML_LOG_LEVEL_ERROR;
        }
        if (error && log_errors.size() < LOG_KEEP) {
            log_errors.append(text, std::min(std::strlen(text), LOG_KEEP - log_errors.size()));
        }
        if (log_echo) {
            std::fputs(text, stderr);
        }
    } catch (...) {
        // a log line that cannot be kept is dropped
    }
}

#ifdef __linux__
struct sigaction previous_abort;

// Async-signal-safe: raw system calls only. Kills each child of each thread of this process, and the
// child's process group (aii starts every command in a session of its own, so the group is the child's id).
void kill_children() {
    int tasks = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (tasks < 0) {
        return;
    }
    char entries[4096];
    for (;;) {
        long n = syscall(SYS_getdents64, tasks, entries, sizeof entries);
        if (n <= 0) {
            break;
        }
        for (long at = 0; at < n;) {
            unsigned short reclen;
            std::memcpy(&reclen, entries + at + 16, sizeof reclen);
            const char * name = entries + at + 19;
            at += reclen;
            if (name[0] < '0' || name[0] > '9') {
                continue;
            }
            char path[64] = "/proc/self/task/";
            size_t p = std::strlen(path);
            for (size_t i = 0; name[i] != '\0' && p < sizeof path - 10; i++) {
                path[p++] = name[i];
            }
            std::memcpy(path + p, "/children", 10);
            int children = open(path, O_RDONLY | O_CLOEXEC);
            if (children < 0) {
                continue;
            }
            char ids[4096];
            long got = read(children, ids, sizeof ids - 1);
            close(children);
            long pid = 0;
            for (long i = 0; i <= got; i++) {
                if (i < got && ids[i] >= '0' && ids[i] <= '9') {
                    pid = pid * 10 + (ids[i] - '0');
                } else if (pid > 0) {
                    kill((pid_t) -pid, SIGKILL);
                    kill((pid_t) pid, SIGKILL);
                    pid = 0;
                }
            }
        }
    }
    close(tasks);
}

void on_abort(int signal) {
    kill_children();
    sigaction(SIGABRT, &previous_abort, nullptr);
    raise(signal);
}

void guard_aborts() {
    struct sigaction action {};
    action.sa_handler = on_abort;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGABRT, &action, &previous_abort);
}
#endif

std::once_flag initialised;

}  // namespace

extern "C" {

int32_t aiillama_abi_version(void) {
    return AIILLAMA_ABI_VERSION;
}

int32_t aiillama_init(const char * backend_dir, int32_t echo, char * error, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_INTERNAL, error, capacity, length, [&]() -> int32_t {
        if (backend_dir == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no backend directory", error, capacity, length);
        }
        std::call_once(initialised, [&]() {
            {
                std::lock_guard<std::mutex> hold(log_lock);
                log_echo = echo != 0;
            }
            llama_log_set(on_log, nullptr);
            common_log_set_verbosity_thold(echo != 0 ? LOG_DEFAULT_LLAMA : -1);
#ifdef __linux__
            guard_aborts();
#endif
            ggml_backend_load_all_from_path(backend_dir);
            llama_backend_init();
        });
        if (ggml_backend_dev_count() == 0) {
            return fail(AIILLAMA_ERR_INTERNAL, std::string("no ggml backend loaded from ") + backend_dir, error,
                    capacity, length);
        }
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

void aiillama_log_errors(char * buffer, int64_t capacity, int64_t * length) {
    try {
        std::lock_guard<std::mutex> hold(log_lock);
        copy_out(log_errors, buffer, capacity, length);
    } catch (...) {
        copy_out("", buffer, capacity, length);
    }
}

void aiillama_log_clear(void) {
    try {
        std::lock_guard<std::mutex> hold(log_lock);
        log_errors.clear();
    } catch (...) {
        // nothing kept to clear
    }
}

int32_t aiillama_chat_new(const struct llama_model * model, aiillama_chat ** out, char * error, int64_t capacity,
        int64_t * length) {
    return guarded(AIILLAMA_ERR_TEMPLATE, error, capacity, length, [&]() -> int32_t {
        if (model == nullptr || out == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no model", error, capacity, length);
        }
        auto chat = std::make_unique<aiillama_chat>();
        chat->templates = common_chat_templates_init(model, "");
        if (!chat->templates) {
            return fail(AIILLAMA_ERR_TEMPLATE, "the model has no usable chat template", error, capacity, length);
        }
        *out = chat.release();
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

int32_t aiillama_chat_supports_tools(const aiillama_chat * chat) {
    try {
        if (chat == nullptr) {
            return 0;
        }
        auto caps = common_chat_templates_get_caps(chat->templates.get());
        auto tools = caps.find("supports_tools");
        auto calls = caps.find("supports_tool_calls");
        return tools != caps.end() && tools->second && calls != caps.end() && calls->second ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

void aiillama_chat_free(aiillama_chat * chat) {
    try {
        delete chat;
    } catch (...) {
        // freeing cannot be reported
    }
}

int32_t aiillama_turn_new(const aiillama_chat * chat, const char * messages, int64_t messages_length,
        const char * tools, int64_t tools_length, aiillama_turn ** out, char * error, int64_t capacity,
        int64_t * length) {
    return guarded(AIILLAMA_ERR_TEMPLATE, error, capacity, length, [&]() -> int32_t {
        if (chat == nullptr || messages == nullptr || messages_length < 0 || tools_length < 0 || out == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no chat or messages", error, capacity, length);
        }
        common_chat_templates_inputs inputs;
        try {
            inputs.messages = common_chat_msgs_parse_oaicompat(
                    common_json::parse(std::string(messages, (size_t) messages_length)));
            if (tools != nullptr && tools_length > 0) {
                inputs.tools = common_chat_tools_parse_oaicompat(
                        common_json::parse(std::string(tools, (size_t) tools_length)));
            }
        } catch (const std::exception & e) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, e.what(), error, capacity, length);
        }
        inputs.add_generation_prompt = true;
        inputs.use_jinja = true;
        // What llama-server does by default: thinking, where a template has it, is parsed apart from the text.
        inputs.reasoning_format = COMMON_REASONING_FORMAT_DEEPSEEK;
        auto turn = std::make_unique<aiillama_turn>();
        turn->params = common_chat_templates_apply(chat->templates.get(), inputs);
        turn->parser = common_chat_parser_params(turn->params);
        turn->parser.reasoning_format = COMMON_REASONING_FORMAT_DEEPSEEK;
        turn->parser.parse_tool_calls = !inputs.tools.empty();
        if (!turn->params.parser.empty()) {
            turn->parser.parser.load(turn->params.parser);
        }
        *out = turn.release();
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

void aiillama_turn_prompt(const aiillama_turn * turn, char * buffer, int64_t capacity, int64_t * length) {
    try {
        copy_out(turn == nullptr ? std::string() : turn->params.prompt, buffer, capacity, length);
    } catch (...) {
        copy_out("", buffer, capacity, length);
    }
}

void aiillama_turn_stops(const aiillama_turn * turn, char * buffer, int64_t capacity, int64_t * length) {
    try {
        common_json stops = common_json::array();
        if (turn != nullptr) {
            for (const auto & stop : turn->params.additional_stops) {
                stops.push_back(stop);
            }
        }
        copy_out(stops.dump(), buffer, capacity, length);
    } catch (...) {
        copy_out("[]", buffer, capacity, length);
    }
}

int32_t aiillama_turn_parse(const aiillama_turn * turn, const char * text, int64_t text_length, int32_t partial,
        char * buffer, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_PARSE, buffer, capacity, length, [&]() -> int32_t {
        if (turn == nullptr || text == nullptr || text_length < 0) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no turn or text", buffer, capacity, length);
        }
        common_chat_msg msg = common_chat_parse(std::string(text, (size_t) text_length), partial != 0, turn->parser);
        copy_out(msg.to_json_oaicompat().dump(), buffer, capacity, length);
        return AIILLAMA_OK;
    });
}

void aiillama_turn_free(aiillama_turn * turn) {
    try {
        delete turn;
    } catch (...) {
        // freeing cannot be reported
    }
}

int32_t aiillama_sampler_new(const aiillama_turn * turn, const struct llama_model * model, uint32_t seed,
        aiillama_sampler ** out, char * error, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_GRAMMAR, error, capacity, length, [&]() -> int32_t {
        if (turn == nullptr || model == nullptr || out == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no turn or model", error, capacity, length);
        }
        const llama_vocab * vocab = llama_model_get_vocab(model);
        common_params_sampling params;
        params.seed = seed;
        const common_chat_params & chat = turn->params;
        // As llama-server turns a chat template's grammar into sampling parameters (server-schema.cpp).
        if (!chat.grammar.empty()) {
            params.grammar = {COMMON_GRAMMAR_TYPE_TOOL_CALLS, chat.grammar};
        }
        params.grammar_lazy = chat.grammar_lazy;
        params.generation_prompt = chat.generation_prompt;
        for (const auto & text : chat.preserved_tokens) {
            auto ids = common_tokenize(vocab, text, false, true);
            if (ids.size() == 1) {
                params.preserved_tokens.insert(ids[0]);
            }
        }
        for (const auto & trigger : chat.grammar_triggers) {
            if (trigger.type == COMMON_GRAMMAR_TRIGGER_TYPE_WORD) {
                auto ids = common_tokenize(vocab, trigger.value, false, true);
                if (ids.size() == 1 && params.preserved_tokens.count(ids[0]) > 0) {
                    common_grammar_trigger token;
                    token.type = COMMON_GRAMMAR_TRIGGER_TYPE_TOKEN;
                    token.value = trigger.value;
                    token.token = ids[0];
                    params.grammar_triggers.push_back(std::move(token));
                    continue;
                }
            }
            params.grammar_triggers.push_back(trigger);
        }
        if (params.grammar_lazy && params.grammar_triggers.empty()) {
            return fail(AIILLAMA_ERR_GRAMMAR, "a lazy grammar without triggers", error, capacity, length);
        }
        auto sampler = std::make_unique<aiillama_sampler>();
        sampler->sampler = common_sampler_init(model, params);
        if (sampler->sampler == nullptr) {
            return fail(AIILLAMA_ERR_GRAMMAR, "the sampler (or its grammar) cannot be built", error, capacity,
                    length);
        }
        *out = sampler.release();
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

int32_t aiillama_sampler_next(aiillama_sampler * sampler, struct llama_context * context, int32_t * token,
        char * error, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_GRAMMAR, error, capacity, length, [&]() -> int32_t {
        if (sampler == nullptr || sampler->sampler == nullptr || context == nullptr || token == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no sampler or context", error, capacity, length);
        }
        llama_token next = common_sampler_sample(sampler->sampler, context, -1);
        common_sampler_accept(sampler->sampler, next, true);
        *token = next;
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

void aiillama_sampler_free(aiillama_sampler * sampler) {
    try {
        if (sampler != nullptr) {
            common_sampler_free(sampler->sampler);
            delete sampler;
        }
    } catch (...) {
        // freeing cannot be reported
    }
}

int32_t aiillama_decode(struct llama_context * context, const int32_t * tokens, int32_t count, int32_t batch,
        char * error, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_INTERNAL, error, capacity, length, [&]() -> int32_t {
        if (context == nullptr || tokens == nullptr || count <= 0 || batch <= 0) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no context or tokens", error, capacity, length);
        }
        std::vector<llama_token> copy(tokens, tokens + count);
        for (int32_t at = 0; at < count; at += batch) {
            int32_t n = std::min(batch, count - at);
            int32_t status = llama_decode(context, llama_batch_get_one(copy.data() + at, n));
            if (status == 1) {
                return fail(AIILLAMA_ERR_CONTEXT_FULL, "llama_decode: no room in the context (1)", error, capacity,
                        length);
            }
            if (status == 2) {
                return fail(AIILLAMA_ERR_STOPPED, "llama_decode: stopped (2)", error, capacity, length);
            }
            if (status != 0) {
                return fail(AIILLAMA_ERR_DECODE, "llama_decode failed (" + std::to_string(status) + ")", error,
                        capacity, length);
            }
        }
        copy_out("", error, capacity, length);
        return AIILLAMA_OK;
    });
}

aiillama_stop * aiillama_stop_new(void) {
    try {
        return new aiillama_stop();
    } catch (...) {
        return nullptr;
    }
}

void aiillama_stop_set(aiillama_stop * stop, int32_t raised) {
    if (stop != nullptr) {
        stop->raised.store(raised != 0 ? 1 : 0);
    }
}

void aiillama_stop_free(aiillama_stop * stop) {
    delete stop;
}

bool aiillama_stop_check(void * stop) {
    return stop != nullptr && static_cast<aiillama_stop *>(stop)->raised.load() != 0;
}

}  // extern "C"
