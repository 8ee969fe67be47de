/*
 * aiillama: the C ABI of aii's thin shim over llama.cpp's libllama-common
 * (chat templates, tool-call grammars, answer parsing) and over the few
 * libllama calls that can throw a C++ exception (decoding, sampling).
 *
 * Rules of the ABI: fixed-width integer types; status codes as the defines
 * below; inputs are borrowed for the call; text comes back in caller buffers
 * with snprintf semantics (at most capacity - 1 bytes and a NUL, the full
 * length in *length), or in shim-owned handles that the caller frees with
 * the matching _free. Every function catches every C++ exception and turns
 * it into a status, with the exception's text in the error buffer. A
 * llama_model or llama_context comes from libllama's own C API.
 */
#ifndef AIILLAMA_H
#define AIILLAMA_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AIILLAMA_ABI_VERSION 1

#define AIILLAMA_OK 0
/* A NULL handle, a negative length, a JSON argument that does not parse. */
#define AIILLAMA_ERR_INVALID_ARGUMENT 1
/* The model's chat template cannot be read or rendered. */
#define AIILLAMA_ERR_TEMPLATE 2
/* The tool-call grammar cannot be built, or sampling found no token it accepts. */
#define AIILLAMA_ERR_GRAMMAR 3
/* The answer cannot be parsed into text and tool calls. */
#define AIILLAMA_ERR_PARSE 4
/* llama_decode failed; the error text holds its return value. */
#define AIILLAMA_ERR_DECODE 5
/* llama_decode found no room in the context for the tokens. */
#define AIILLAMA_ERR_CONTEXT_FULL 6
/* llama_decode stopped because the stop flag was raised. */
#define AIILLAMA_ERR_STOPPED 7
/* Any other C++ exception. */
#define AIILLAMA_ERR_INTERNAL 9

struct llama_model;
struct llama_context;

/* The chat templates of one model. */
typedef struct aiillama_chat aiillama_chat;
/* One rendered conversation: its prompt and how to sample and parse the answer. */
typedef struct aiillama_turn aiillama_turn;
/* The sampler of one answer, with the turn's grammar. */
typedef struct aiillama_sampler aiillama_sampler;
/* A flag that stops llama_decode from another thread. */
typedef struct aiillama_stop aiillama_stop;

int32_t aiillama_abi_version(void);

/*
 * Loads ggml's backends from backend_dir (the CPU variant that fits this
 * processor, Metal on a Mac), routes llama.cpp's log into the shim (kept:
 * the last error lines; echoed to stderr when echo is non-zero), and, on
 * Linux, installs the SIGABRT guard: a llama.cpp abort first kills every
 * child process of this process and its process group. Idempotent.
 */
int32_t aiillama_init(const char *backend_dir, int32_t echo, char *error, int64_t capacity, int64_t *length);

/* The error lines llama.cpp logged since the last aiillama_log_clear, joined by LF. */
void aiillama_log_errors(char *buffer, int64_t capacity, int64_t *length);
void aiillama_log_clear(void);

/* The model's chat templates. */
int32_t aiillama_chat_new(const struct llama_model *model, aiillama_chat **out, char *error, int64_t capacity,
        int64_t *length);
/* 1 when the template can render tools and tool calls, else 0. */
int32_t aiillama_chat_supports_tools(const aiillama_chat *chat);
void aiillama_chat_free(aiillama_chat *chat);

/*
 * Renders messages (a JSON array of OpenAI-style chat messages) and tools (a
 * JSON array of OpenAI-style tool definitions, or NULL) with the model's
 * template, adding the generation prompt.
 */
int32_t aiillama_turn_new(const aiillama_chat *chat, const char *messages, int64_t messages_length,
        const char *tools, int64_t tools_length, aiillama_turn **out, char *error, int64_t capacity,
        int64_t *length);
/* The rendered prompt. */
void aiillama_turn_prompt(const aiillama_turn *turn, char *buffer, int64_t capacity, int64_t *length);
/* The strings that end the answer besides the model's end-of-generation tokens, as a JSON array. */
void aiillama_turn_stops(const aiillama_turn *turn, char *buffer, int64_t capacity, int64_t *length);
/*
 * Adds text (complete UTF-8) to the answer the turn keeps and parses the
 * answer so far, as llama-server does after every token; the buffer gets what
 * that adds to the answer's text (none while a tool call is being written, or
 * while the parser cannot tell yet). A half-written answer that does not
 * parse yet adds nothing and is no error. When what it adds does not fit
 * the buffer, it counts as not given out yet: the same call with no new text
 * (text_length 0) and a buffer of *length + 1 bytes gives it.
 */
int32_t aiillama_turn_feed(aiillama_turn *turn, const char *text, int64_t text_length, char *buffer,
        int64_t capacity, int64_t *length);
/*
 * The whole answer, parsed as complete, as a JSON chat message: content and
 * tool_calls (each with function.name and function.arguments).
 */
int32_t aiillama_turn_finish(aiillama_turn *turn, char *buffer, int64_t capacity, int64_t *length);
void aiillama_turn_free(aiillama_turn *turn);

/* llama-server's default sampling, seeded, constrained by the turn's grammar when it has one. */
int32_t aiillama_sampler_new(const aiillama_turn *turn, const struct llama_model *model, uint32_t seed,
        aiillama_sampler **out, char *error, int64_t capacity, int64_t *length);
/* Samples the next token from the context's last logits and accepts it. */
int32_t aiillama_sampler_next(aiillama_sampler *sampler, struct llama_context *context, int32_t *token,
        char *error, int64_t capacity, int64_t *length);
void aiillama_sampler_free(aiillama_sampler *sampler);

/*
 * Decodes count tokens at the end of sequence 0 in batches of at most batch
 * tokens; only the last token's logits are kept. On failure the context
 * holds the batches that were decoded.
 */
int32_t aiillama_decode(struct llama_context *context, const int32_t *tokens, int32_t count, int32_t batch,
        char *error, int64_t capacity, int64_t *length);

aiillama_stop *aiillama_stop_new(void);
/* Raises (non-zero) or lowers the flag; any thread. */
void aiillama_stop_set(aiillama_stop *stop, int32_t raised);
void aiillama_stop_free(aiillama_stop *stop);
/* The abort callback for llama_context_params, its data an aiillama_stop: true while the flag is raised. */
bool aiillama_stop_check(void *stop);

#ifdef __cplusplus
}
#endif

#endif
