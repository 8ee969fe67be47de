/*
 * fmshim_test.h: the scripting API of the C stub of fmshim.h, used by the
 * aii-ffm tests on systems without Foundation Models. Not part of the ABI.
 *
 * The stub's state is process-wide: tests that use it run one at a time and
 * call fmshim_test_reset() first. When loaded, the stub scripts itself from
 * FMSHIM_STUB_* environment variables (fmshim_stub_env.c), for tests that run
 * the command line in a process of its own.
 */
#ifndef FMSHIM_TEST_H
#define FMSHIM_TEST_H

#include <stdint.h>

/* Back to defaults: available, context 4096, token counting supported (one
   token per byte), languages ["en-US"], variant unsupported, empty script,
   no winding down after an early end (grace 5 s), the respond gate open, counters
   cleared. */
void fmshim_test_reset(void);

void fmshim_test_set_availability(int32_t reason);
void fmshim_test_set_context_size(int32_t status, int64_t tokens);
void fmshim_test_set_token_count(int32_t status, const char *detail);
void fmshim_test_set_languages(const char *json);
void fmshim_test_set_variant(int32_t status, const char *text);
/* The next fmshim_session_create fails with status and detail (once). */
void fmshim_test_fail_next_create(int32_t status, const char *detail);
/* After an answer of a session ends early (cancelled, or stopped or failed by
   a callback, once it had started), its generation winds down for
   wind_down_ms. A respond of that session meanwhile waits, as the shim's
   answer gate does, until the generation has wound down (then answers), a
   cancel of its answer (FMSHIM_ERR_CANCELLED) or grace_ms after the stop
   (FMSHIM_ERR_CONCURRENT_REQUESTS before any event). Reset: 0 and 5000. */
void fmshim_test_wind_down_after_early_end(int64_t wind_down_ms, int64_t grace_ms);
/* While closed, every fmshim_session_respond waits on entry, before the
   answer has started (as a call that is on its way into the library): a
   cancel then arrives before the answer starts. */
void fmshim_test_close_respond_gate(void);
void fmshim_test_open_respond_gate(void);
/* How many fmshim_session_respond calls wait at the closed gate. */
int64_t fmshim_test_waiting_at_gate(void);

/* The script every fmshim_session_respond plays, step by step. */
void fmshim_test_script_clear(void);
/* A DELTA event with these bytes. */
void fmshim_test_script_delta(const char *bytes, int64_t length);
/* A RESET event with these bytes. */
void fmshim_test_script_reset(const char *bytes, int64_t length);
/* A call of the session's tool with these JSON arguments. */
void fmshim_test_script_tool_call(const char *arguments_json);
/* A call of the session's tool with these JSON arguments made with the id of
   the session's last answer that ended early (else the id before this
   answer's): what a broken library would pass on from a cancelled answer. */
void fmshim_test_script_stale_tool_call(const char *arguments_json);
/* A DELTA event with prefix followed by the result of the last tool call. */
void fmshim_test_script_echo_tool_result(const char *prefix);
/* A DELTA event with prefix followed by the prompt of this respond. */
void fmshim_test_script_echo_prompt(const char *prefix);
/* End the answer with this status and detail. An answer whose steps all ran
   ends with FMSHIM_OK, even when a cancel came during the last step (as the
   library: a cancel never turns a completed answer into a failure); a cancel
   seen before a step ends it with FMSHIM_ERR_CANCELLED. */
void fmshim_test_script_fail(int32_t status, const char *detail);
/* Wait until cancelled (then the answer ends with FMSHIM_ERR_CANCELLED), at
   most timeout_ms. */
void fmshim_test_script_wait_for_cancel(int64_t timeout_ms);
/* Wait until a file exists at path, at most timeout_ms; a cancel ends the
   wait (and the answer, with FMSHIM_ERR_CANCELLED). */
void fmshim_test_script_wait_for_file(const char *path, int64_t timeout_ms);
/* A DELTA event delivered from a new thread while respond waits for it:
   what a broken shim would do. */
void fmshim_test_script_foreign_delta(const char *bytes, int64_t length);
/* A DELTA event delivered from another thread delay_ms after respond has
   returned: what a broken shim would do. */
void fmshim_test_script_late_delta(const char *bytes, int64_t length, int64_t delay_ms);

/* Waits for the late callbacks scheduled so far; returns the value the last
   one got from the callback, or -1 when there was none. */
int32_t fmshim_test_join_late_callbacks(void);

/* Counters and what the last calls received. */
int64_t fmshim_test_live_sessions(void);
int64_t fmshim_test_cancel_calls(void);
int64_t fmshim_test_respond_calls(void);
/* How many times the stub called an event callback. */
int64_t fmshim_test_events_delivered(void);
/* What the last fmshim_session_respond returned, or -1. */
int32_t fmshim_test_last_status(void);
/* Calls that broke the contract of fmshim.h (free while responding, a NULL
   where a pointer is required, answer ids that do not increase, a tool
   callback returning 0 without a result, ...). */
int64_t fmshim_test_contract_violations(void);
/* The value the foreign-thread callback returned, or -1. */
int32_t fmshim_test_last_foreign_result(void);
/* snprintf semantics; what="instructions", "tool_name", "tool_description",
   "tool_schema" or "prompt" of the last create/respond. */
int64_t fmshim_test_last_text(const char *what, char *buffer, int64_t capacity);

#endif /* FMSHIM_TEST_H */
