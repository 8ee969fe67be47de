// The shim's process-wide state: llama.cpp's backends, its log (the error lines kept for Java to read), and on
// Linux the SIGABRT guard that kills aii's commands before a llama.cpp abort ends the process.

#include "aiillama_internal.h"

#include "ggml-backend.h"
#include "llama.h"
#include "log.h"

#include <cstdio>
#include <mutex>

#ifdef __linux__
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using aiillama::copy_out;
using aiillama::fail;
using aiillama::guarded;

namespace {

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
}  // extern "C"
