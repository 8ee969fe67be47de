/*
 * fmshim.h: the C ABI of libfmshim, the bridge between aii and Apple's
 * on-device Foundation Models. This header is the single source of truth of
 * the ABI: the Swift implementation, the Java bindings and the C test stub
 * all follow it.
 *
 * Rules:
 * - Fixed-width integer types only; status codes are stable #defines.
 * - Inputs are borrowed for the duration of the call; the shim copies what it
 *   keeps. Text is UTF-8. NUL-terminated strings are used for short fixed
 *   texts; arbitrary text (prompts, answer bytes, tool arguments and results)
 *   travels as pointer and length and may contain NUL bytes.
 * - Outputs go into caller buffers with snprintf semantics: the function
 *   returns the length of the whole text (without the terminating NUL),
 *   writes as much as fits followed by a NUL when capacity > 0, and the caller
 *   calls again with a larger buffer when the result is >= capacity. No
 *   memory owned by the shim is ever handed to the caller. A negative result
 *   is the negated status code of a failure.
 * - Detail buffers receive, on failure, a NUL-terminated description of the
 *   error in the framework's own words (case name and debug description),
 *   cut at a character boundary to fit.
 * - Callbacks run only on the thread that called fmshim_session_respond,
 *   one at a time, and never after fmshim_session_respond has returned.
 */
#ifndef FMSHIM_H
#define FMSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes; fmshim_abi_version() returns it. */
#define FMSHIM_ABI_VERSION 2

/* ---- status codes --------------------------------------------------------- */

#define FMSHIM_OK 0
/* A required pointer was NULL, a length was negative, or text was not UTF-8. */
#define FMSHIM_ERR_INVALID_ARGUMENT 1
/* This library or the running system does not offer this function: the library
   was built with an SDK that lacks it (context size and token counting need the
   macOS 26.4 SDK, the model variant the macOS 27 SDK), or the system is too old
   for it (token counting before macOS 26.4, the model variant before macOS 27). */
#define FMSHIM_ERR_UNSUPPORTED 2
/* fmshim_session_respond was called while the session was still responding. */
#define FMSHIM_ERR_BUSY 3
/* The answer was stopped by fmshim_session_cancel, or cancelled before it
   started. */
#define FMSHIM_ERR_CANCELLED 4
/* The event callback returned non-zero. */
#define FMSHIM_ERR_STOPPED 5
/* The tool callback returned non-zero, or returned 0 without a result. */
#define FMSHIM_ERR_TOOL_FAILED 6
/* The tool's parameters JSON schema could not be turned into a generation
   schema. */
#define FMSHIM_ERR_SCHEMA 7
/* Any other failure; the detail says what. */
#define FMSHIM_ERR_INTERNAL 8

/* Generation errors: LanguageModelSession.GenerationError (macOS 26) and
   LanguageModelError, SystemLanguageModel.Error and LanguageModelSession.Error
   (macOS 27) map onto these. */
#define FMSHIM_ERR_CONTEXT_EXCEEDED 20
#define FMSHIM_ERR_ASSETS_UNAVAILABLE 21
#define FMSHIM_ERR_GUARDRAIL_VIOLATION 22
#define FMSHIM_ERR_UNSUPPORTED_GUIDE 23
#define FMSHIM_ERR_UNSUPPORTED_LANGUAGE 24
#define FMSHIM_ERR_DECODING_FAILURE 25
#define FMSHIM_ERR_RATE_LIMITED 26
/* The session is still busy with an earlier answer: the framework's
   concurrentRequests, or an answer this library stopped (cancelled, or ended by
   a callback) whose generation has not wound down within a few seconds. No
   event was delivered; asking again a little later may succeed. */
#define FMSHIM_ERR_CONCURRENT_REQUESTS 27
#define FMSHIM_ERR_REFUSAL 28
#define FMSHIM_ERR_TRANSCRIPT_MUTATION 29
/* A generation error this library does not know by name. (An unknown error
   whose description speaks of the context window or context size is
   FMSHIM_ERR_CONTEXT_EXCEEDED.) */
#define FMSHIM_ERR_GENERATION_OTHER 30

/* ---- availability --------------------------------------------------------- */

#define FMSHIM_AVAILABLE 0
#define FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE 1
#define FMSHIM_UNAVAILABLE_NOT_ENABLED 2
#define FMSHIM_UNAVAILABLE_MODEL_NOT_READY 3
#define FMSHIM_UNAVAILABLE_UNKNOWN 4

/* ---- answer events -------------------------------------------------------- */

/* bytes/length are the bytes appended since the previous event; they may end
   in the middle of a UTF-8 sequence. */
#define FMSHIM_EVENT_DELTA 1
/* bytes/length are the whole answer so far, which does not extend the text of
   the previous events. */
#define FMSHIM_EVENT_RESET 2

/* An opaque conversation with the model. */
typedef struct fmshim_session fmshim_session;

/* Where a tool callback puts its result. Valid only during the callback. */
typedef struct fmshim_tool_reply fmshim_tool_reply;

/* Receives one answer event, with the user_data of the fmshim_session_respond
   it belongs to. bytes are borrowed for the call. Returns 0 to go on,
   non-zero to stop the answer (fmshim_session_respond then returns
   FMSHIM_ERR_STOPPED at once; no further event or tool call follows). */
typedef int32_t (*fmshim_event_fn)(void *user_data, int32_t kind, const char *bytes, int64_t length);

/* Runs one call of the session's tool, made by the answer answer_id (the id
   its fmshim_session_respond was given). arguments_json (the arguments object
   as JSON) is borrowed for the call. Sets the result with
   fmshim_tool_reply_set and returns 0, or returns non-zero on failure.
   Returning 0 without having set a result is a failure too. On failure
   fmshim_session_respond stops the answer and returns FMSHIM_ERR_TOOL_FAILED.
   A call is only ever made during the fmshim_session_respond of answer_id:
   a call of an answer that was cancelled or has ended is never passed on. */
typedef int32_t (*fmshim_tool_fn)(void *user_data, int64_t answer_id, const char *arguments_json,
                                  int64_t arguments_length, fmshim_tool_reply *reply);

/* ---- functions ------------------------------------------------------------ */

/* The ABI version of the library: FMSHIM_ABI_VERSION of the header it was
   built from. */
int32_t fmshim_abi_version(void);

/* One of FMSHIM_AVAILABLE or FMSHIM_UNAVAILABLE_*. */
int32_t fmshim_availability(void);

/* The model's context window in tokens, into *out_tokens, as the framework
   reports it. FMSHIM_OK, or FMSHIM_ERR_UNSUPPORTED when this library was built
   with an SDK before macOS 26.4, which lacks the function (the framework
   back-deploys it to every macOS 26). With FMSHIM_OK, *out_tokens may be 0:
   the framework does not know the size yet (seen on macOS 27 for a while after
   boot, until the model is ready); the caller treats 0 as unknown. */
int32_t fmshim_context_size(int64_t *out_tokens);

/* The number of tokens text takes as the prompt of an answer (counted as a
   Prompt, as the session sees it), into *out_tokens. FMSHIM_OK,
   FMSHIM_ERR_UNSUPPORTED (built with an SDK before macOS 26.4, or running on a
   system before it), FMSHIM_ERR_INTERNAL when the framework has not counted
   within 5 seconds (the detail says so), or another status with a detail. */
int32_t fmshim_token_count(const char *text, int64_t text_length, int64_t *out_tokens, char *detail,
                           int64_t detail_capacity);

/* The supported languages as a JSON array of strings, each the language code,
   script and region of one language joined by '-' (e.g. "zh-Hans-CN",
   "en-US"), in no particular order. snprintf semantics. */
int64_t fmshim_supported_languages(char *buffer, int64_t capacity);

/* The model variant's display name. snprintf semantics;
   -FMSHIM_ERR_UNSUPPORTED before macOS 27. */
int64_t fmshim_variant(char *buffer, int64_t capacity);

/* Opens a session. instructions may be NULL (none). tool_name NULL means no
   tool; otherwise tool_description, tool_parameters_schema (a JSON Schema of
   the arguments object) and tool_fn are required, and tool_fn is called with
   tool_user_data. FMSHIM_OK with *out_session set, or a status with a
   detail. */
int32_t fmshim_session_create(const char *instructions, const char *tool_name, const char *tool_description,
                              const char *tool_parameters_schema, fmshim_tool_fn tool_fn, void *tool_user_data,
                              char *detail, int64_t detail_capacity, fmshim_session **out_session);

/* Releases a session. Freeing does not cancel: it must not be called while
   fmshim_session_respond runs on the session (cancel the answer, wait for
   fmshim_session_respond to return, then free). After it, the session
   pointer must not be used again, not even by fmshim_session_cancel. Work
   the framework still does for an answer that was stopped goes on without
   the session and never calls back. NULL is ignored. */
void fmshim_session_free(fmshim_session *session);

/* Stops the answer answer_id. Callable from any thread, any number of times,
   before, during or after that answer:
   - during fmshim_session_respond(answer_id): the answer stops at once; no
     event or tool call is delivered after the cancel has been seen, and
     fmshim_session_respond returns FMSHIM_ERR_CANCELLED (or FMSHIM_OK when
     the answer had already completed: a cancel never turns a completed answer
     into a failure);
   - before it (the caller has chosen answer_id but fmshim_session_respond has
     not started it yet): that fmshim_session_respond returns
     FMSHIM_ERR_CANCELLED at once, without asking the model;
   - after it has returned: nothing happens.
   Cancelling does not free the session. */
void fmshim_session_cancel(fmshim_session *session, int64_t answer_id);

/* Sends prompt as the answer answer_id and blocks until the answer is
   complete, fails, is cancelled or is stopped by a callback. answer_id is
   chosen by the caller: positive, and larger than the id of every earlier
   answer of the session (else FMSHIM_ERR_INVALID_ARGUMENT). Events go to
   on_event with user_data; tool calls go to the session's tool callback with
   answer_id; both on the calling thread. An earlier answer that was stopped
   may still be winding down in the framework: respond then waits a few
   seconds for it, and returns FMSHIM_ERR_CONCURRENT_REQUESTS if it is still
   busy. Returns FMSHIM_OK, FMSHIM_ERR_CANCELLED, FMSHIM_ERR_STOPPED,
   FMSHIM_ERR_TOOL_FAILED, FMSHIM_ERR_BUSY (another respond runs on the
   session), or an error status with a detail. */
int32_t fmshim_session_respond(fmshim_session *session, int64_t answer_id, const char *prompt,
                               int64_t prompt_length, fmshim_event_fn on_event, void *user_data, char *detail,
                               int64_t detail_capacity);

/* Sets the result of a tool call (copied). Returns FMSHIM_OK, or
   FMSHIM_ERR_INVALID_ARGUMENT for a NULL reply or bad text. */
int32_t fmshim_tool_reply_set(fmshim_tool_reply *reply, const char *result, int64_t result_length);

#ifdef __cplusplus
}
#endif

#endif /* FMSHIM_H */
