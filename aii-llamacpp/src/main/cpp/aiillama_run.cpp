// Sampling and decoding: the libllama and libllama-common calls that can throw, each behind a try block, and
// the stop flag that llama_decode's abort callback reads.

#include "aiillama_internal.h"

#include "llama.h"

#include <vector>

using aiillama::copy_out;
using aiillama::fail;
using aiillama::guarded;

extern "C" {

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
