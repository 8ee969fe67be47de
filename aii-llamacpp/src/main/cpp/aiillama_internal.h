// What the shim's files share: its handle types, and the helpers that turn text and exceptions into the ABI's
// caller buffers and status codes. Not part of the ABI.
#pragma once

#include "aiillama.h"

#include "chat.h"
#include "common.h"
#include "sampling.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <string>

struct aiillama_chat {
    common_chat_templates_ptr templates;
};

struct aiillama_turn {
    common_chat_params params;
    common_chat_parser_params parser;
    std::string answer;   // the text generated so far
    std::string shown;    // the content of the last parse, as far as it was given out
};

struct aiillama_sampler {
    common_sampler * sampler = nullptr;
};

struct aiillama_stop {
    std::atomic<int32_t> raised{0};
};

namespace aiillama {

inline void copy_out(const std::string & text, char * buffer, int64_t capacity, int64_t * length) {
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

inline int32_t fail(int32_t status, const std::string & why, char * error, int64_t capacity, int64_t * length) {
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
}  // namespace aiillama
