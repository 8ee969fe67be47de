/*
 * A C implementation of fmshim.h for the tests of aii-ffm: plays scripted
 * answers, errors and tool calls instead of running a model, and counts what
 * it was asked, so the Java side can be tested where Foundation Models does
 * not exist. Its scripting functions are in fmshim_test.h.
 */
#define _GNU_SOURCE
#include "fmshim.h"
#include "fmshim_test.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum step_kind {
    STEP_DELTA, STEP_RESET, STEP_TOOL, STEP_STALE_TOOL, STEP_ECHO, STEP_PROMPT, STEP_FAIL, STEP_WAIT_CANCEL, STEP_WAIT_FILE,
    STEP_FOREIGN, STEP_LATE
};

struct step {
    enum step_kind kind;
    char *bytes;
    int64_t length;
    int32_t status;
    int64_t millis;
};

struct text {
    char *bytes;
    int64_t length;
};

struct fmshim_session {
    fmshim_tool_fn tool_fn;
    void *tool_user_data;
    atomic_int responding;
    /* The largest answer id fmshim_session_cancel was given: that answer and
       every earlier one count as cancelled. */
    atomic_llong cancelled_up_to;
    /* Touched only by the responding thread. */
    int64_t last_answer_id;
    int64_t last_early_end_id;
    /* While a generation stopped early winds down (CLOCK_MONOTONIC ms): until
       when it does, and until when a new answer waits for it. */
    int64_t winding_down_until;
    int64_t wait_until;
    struct text last_tool_result;
};

struct fmshim_tool_reply {
    struct text result;
    int set;
};

struct late_call {
    pthread_t thread;
    fmshim_event_fn fn;
    void *user_data;
    struct text bytes;
    int64_t delay_ms;
    int32_t result;
};

#define MAX_STEPS 64
#define MAX_LATE 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_opened = PTHREAD_COND_INITIALIZER;

static struct {
    int32_t availability;
    int32_t context_status;
    int64_t context_tokens;
    int32_t token_status;
    struct text token_detail;
    struct text languages;
    int32_t variant_status;
    struct text variant;
    int32_t create_fail_status;
    struct text create_fail_detail;
    int64_t wind_down_ms;
    int64_t wind_down_grace_ms;
    int gate_closed;
    int64_t waiting_at_gate;
    int64_t events_delivered;
    int32_t last_status;
    struct step steps[MAX_STEPS];
    int step_count;
    struct late_call *late[MAX_LATE];
    int late_count;
    int64_t live_sessions;
    int64_t cancel_calls;
    int64_t respond_calls;
    int64_t violations;
    int32_t foreign_result;
    struct text last_instructions, last_tool_name, last_tool_description, last_tool_schema, last_prompt;
} stub = {.context_tokens = 4096, .foreign_result = -1, .last_status = -1};

/* ---- helpers ---------------------------------------------------------------------------------- */

static int64_t read_counter(const int64_t *counter);

static struct text copy_text(const char *bytes, int64_t length) {
    struct text t = {NULL, 0};
    if (bytes == NULL || length < 0) {
        return t;
    }
    t.bytes = malloc((size_t)length + 1);
    if (length > 0) {
        memcpy(t.bytes, bytes, (size_t)length);
    }
    t.bytes[length] = '\0';
    t.length = length;
    return t;
}

static struct text copy_cstring(const char *s) {
    return s == NULL ? (struct text){NULL, 0} : copy_text(s, (int64_t)strlen(s));
}

static void free_text(struct text *t) {
    free(t->bytes);
    t->bytes = NULL;
    t->length = 0;
}

static void violation(void) {
    pthread_mutex_lock(&lock);
    stub.violations++;
    pthread_mutex_unlock(&lock);
}

/* snprintf semantics over a byte string. */
static int64_t put_text(const struct text *t, char *buffer, int64_t capacity) {
    if (capacity > 0 && buffer != NULL) {
        int64_t n = t->length < capacity - 1 ? t->length : capacity - 1;
        if (n > 0) {
            memcpy(buffer, t->bytes, (size_t)n);
        }
        buffer[n] = '\0';
    }
    return t->length;
}

/* Writes a NUL-terminated detail, cut at a UTF-8 character boundary to fit. */
static void put_detail(const char *detail, char *buffer, int64_t capacity) {
    if (buffer == NULL || capacity <= 0) {
        return;
    }
    int64_t n = detail == NULL ? 0 : (int64_t)strlen(detail);
    if (n > capacity - 1) {
        n = capacity - 1;
        while (n > 0 && (((unsigned char)detail[n]) & 0xC0) == 0x80) {
            n--;
        }
    }
    if (n > 0) {
        memcpy(buffer, detail, (size_t)n);
    }
    buffer[n] = '\0';
}

static void sleep_ms(int64_t ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int is_cancelled(fmshim_session *s, int64_t answer_id) {
    return atomic_load(&s->cancelled_up_to) >= answer_id;
}

/* Calls the event callback, counting the call. */
static int32_t deliver(fmshim_event_fn on_event, void *user_data, int32_t kind, const char *bytes, int64_t length) {
    pthread_mutex_lock(&lock);
    stub.events_delivered++;
    pthread_mutex_unlock(&lock);
    return on_event(user_data, kind, bytes, length);
}

static void add_step(struct step s) {
    pthread_mutex_lock(&lock);
    if (stub.step_count < MAX_STEPS) {
        stub.steps[stub.step_count++] = s;
    } else {
        stub.violations++;
        free(s.bytes);
    }
    pthread_mutex_unlock(&lock);
}

static struct step text_step(enum step_kind kind, const char *bytes, int64_t length) {
    struct text t = copy_text(bytes, length);
    return (struct step){.kind = kind, .bytes = t.bytes, .length = t.length};
}

/* ---- the ABI ---------------------------------------------------------------------------------- */

int32_t fmshim_abi_version(void) {
    return FMSHIM_ABI_VERSION;
}

int32_t fmshim_availability(void) {
    pthread_mutex_lock(&lock);
    int32_t reason = stub.availability;
    pthread_mutex_unlock(&lock);
    return reason;
}

int32_t fmshim_context_size(int64_t *out_tokens) {
    if (out_tokens == NULL) {
        violation();
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    int32_t status = stub.context_status;
    if (status == FMSHIM_OK) {
        *out_tokens = stub.context_tokens;
    }
    pthread_mutex_unlock(&lock);
    return status;
}

int32_t fmshim_token_count(const char *text, int64_t text_length, int64_t *out_tokens, char *detail,
                           int64_t detail_capacity) {
    if ((text == NULL && text_length > 0) || text_length < 0 || out_tokens == NULL) {
        violation();
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    int32_t status = stub.token_status;
    if (status == FMSHIM_OK) {
        *out_tokens = text_length;
    } else {
        put_detail(stub.token_detail.bytes, detail, detail_capacity);
    }
    pthread_mutex_unlock(&lock);
    return status;
}

int64_t fmshim_supported_languages(char *buffer, int64_t capacity) {
    pthread_mutex_lock(&lock);
    int64_t n = put_text(&stub.languages, buffer, capacity);
    pthread_mutex_unlock(&lock);
    return n;
}

int64_t fmshim_variant(char *buffer, int64_t capacity) {
    pthread_mutex_lock(&lock);
    int64_t n = stub.variant_status == FMSHIM_OK ? put_text(&stub.variant, buffer, capacity) : -stub.variant_status;
    pthread_mutex_unlock(&lock);
    return n;
}

int32_t fmshim_session_create(const char *instructions, const char *tool_name, const char *tool_description,
                              const char *tool_parameters_schema, fmshim_tool_fn tool_fn, void *tool_user_data,
                              char *detail, int64_t detail_capacity, fmshim_session **out_session) {
    if (out_session == NULL
        || (tool_name != NULL && (tool_description == NULL || tool_parameters_schema == NULL || tool_fn == NULL))) {
        violation();
        put_detail("invalid arguments to fmshim_session_create", detail, detail_capacity);
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    free_text(&stub.last_instructions);
    free_text(&stub.last_tool_name);
    free_text(&stub.last_tool_description);
    free_text(&stub.last_tool_schema);
    stub.last_instructions = copy_cstring(instructions);
    stub.last_tool_name = copy_cstring(tool_name);
    stub.last_tool_description = copy_cstring(tool_description);
    stub.last_tool_schema = copy_cstring(tool_parameters_schema);
    int32_t fail = stub.create_fail_status;
    if (fail != FMSHIM_OK) {
        put_detail(stub.create_fail_detail.bytes, detail, detail_capacity);
        stub.create_fail_status = FMSHIM_OK;
        pthread_mutex_unlock(&lock);
        return fail;
    }
    stub.live_sessions++;
    pthread_mutex_unlock(&lock);
    fmshim_session *s = calloc(1, sizeof *s);
    s->tool_fn = tool_name == NULL ? NULL : tool_fn;
    s->tool_user_data = tool_user_data;
    *out_session = s;
    return FMSHIM_OK;
}

void fmshim_session_free(fmshim_session *session) {
    if (session == NULL) {
        return;
    }
    if (atomic_load(&session->responding)) {
        /* Freeing now would pull the session from under the responding thread. */
        violation();
        return;
    }
    free_text(&session->last_tool_result);
    free(session);
    pthread_mutex_lock(&lock);
    stub.live_sessions--;
    pthread_mutex_unlock(&lock);
}

void fmshim_session_cancel(fmshim_session *session, int64_t answer_id) {
    if (session == NULL || answer_id <= 0) {
        violation();
        return;
    }
    pthread_mutex_lock(&lock);
    stub.cancel_calls++;
    pthread_mutex_unlock(&lock);
    long long seen = atomic_load(&session->cancelled_up_to);
    while (seen < answer_id && !atomic_compare_exchange_weak(&session->cancelled_up_to, &seen, answer_id)) {
    }
}

int32_t fmshim_tool_reply_set(fmshim_tool_reply *reply, const char *result, int64_t result_length) {
    if (reply == NULL || (result == NULL && result_length > 0) || result_length < 0) {
        violation();
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    free_text(&reply->result);
    reply->result = copy_text(result == NULL ? "" : result, result_length);
    reply->set = 1;
    return FMSHIM_OK;
}

/* ---- playing the script ----------------------------------------------------------------------- */

struct foreign_call {
    fmshim_event_fn fn;
    void *user_data;
    const struct step *step;
    int32_t result;
};

static void *foreign_main(void *arg) {
    struct foreign_call *call = arg;
    call->result = call->fn(call->user_data, FMSHIM_EVENT_DELTA, call->step->bytes, call->step->length);
    return NULL;
}

static void *late_main(void *arg) {
    struct late_call *call = arg;
    sleep_ms(call->delay_ms);
    call->result = call->fn(call->user_data, FMSHIM_EVENT_DELTA, call->bytes.bytes, call->bytes.length);
    return NULL;
}

static int32_t play(fmshim_session *s, int64_t answer_id, const struct step *step, const struct text *prompt,
                    fmshim_event_fn on_event, void *user_data, char *detail, int64_t detail_capacity) {
    switch (step->kind) {
    case STEP_DELTA:
    case STEP_RESET: {
        int32_t kind = step->kind == STEP_DELTA ? FMSHIM_EVENT_DELTA : FMSHIM_EVENT_RESET;
        return deliver(on_event, user_data, kind, step->bytes, step->length) == 0 ? FMSHIM_OK : FMSHIM_ERR_STOPPED;
    }
    case STEP_TOOL:
    case STEP_STALE_TOOL: {
        if (s->tool_fn == NULL) {
            put_detail("the script calls a tool but the session has none", detail, detail_capacity);
            return FMSHIM_ERR_INTERNAL;
        }
        int64_t id = answer_id;
        if (step->kind == STEP_STALE_TOOL) {
            id = s->last_early_end_id > 0 ? s->last_early_end_id : answer_id - 1;
        }
        fmshim_tool_reply reply = {{NULL, 0}, 0};
        int32_t rc = s->tool_fn(s->tool_user_data, id, step->bytes, step->length, &reply);
        if (rc != 0) {
            free_text(&reply.result);
            put_detail("the tool callback returned non-zero", detail, detail_capacity);
            return FMSHIM_ERR_TOOL_FAILED;
        }
        if (!reply.set) {
            /* The library fails the call too; the callers of the stub must never do this. */
            violation();
            put_detail("the tool callback returned 0 without a reply", detail, detail_capacity);
            return FMSHIM_ERR_TOOL_FAILED;
        }
        free_text(&s->last_tool_result);
        s->last_tool_result = reply.result;
        return FMSHIM_OK;
    }
    case STEP_ECHO: {
        int64_t prefix = step->length;
        int64_t total = prefix + s->last_tool_result.length;
        char *bytes = malloc((size_t)total + 1);
        memcpy(bytes, step->bytes, (size_t)prefix);
        if (s->last_tool_result.length > 0) {
            memcpy(bytes + prefix, s->last_tool_result.bytes, (size_t)s->last_tool_result.length);
        }
        int32_t rc = deliver(on_event, user_data, FMSHIM_EVENT_DELTA, bytes, total);
        free(bytes);
        return rc == 0 ? FMSHIM_OK : FMSHIM_ERR_STOPPED;
    }
    case STEP_PROMPT: {
        char *bytes = malloc((size_t)(step->length + prompt->length) + 1);
        memcpy(bytes, step->bytes, (size_t)step->length);
        if (prompt->length > 0) {
            memcpy(bytes + step->length, prompt->bytes, (size_t)prompt->length);
        }
        int32_t rc = deliver(on_event, user_data, FMSHIM_EVENT_DELTA, bytes, step->length + prompt->length);
        free(bytes);
        return rc == 0 ? FMSHIM_OK : FMSHIM_ERR_STOPPED;
    }
    case STEP_FAIL:
        put_detail(step->bytes, detail, detail_capacity);
        return step->status;
    case STEP_WAIT_FILE:
        for (int64_t waited = 0; waited < step->millis; waited += 2) {
            if (is_cancelled(s, answer_id)) {
                return FMSHIM_ERR_CANCELLED;
            }
            if (access(step->bytes, F_OK) == 0) {
                return FMSHIM_OK;
            }
            sleep_ms(2);
        }
        put_detail("waited for a file that never came", detail, detail_capacity);
        return FMSHIM_ERR_INTERNAL;
    case STEP_WAIT_CANCEL:
        for (int64_t waited = 0; waited < step->millis; waited += 2) {
            if (is_cancelled(s, answer_id)) {
                return FMSHIM_ERR_CANCELLED;
            }
            sleep_ms(2);
        }
        put_detail("waited for a cancel that never came", detail, detail_capacity);
        return FMSHIM_ERR_INTERNAL;
    case STEP_FOREIGN: {
        struct foreign_call call = {on_event, user_data, step, -1};
        pthread_t thread;
        pthread_create(&thread, NULL, foreign_main, &call);
        pthread_join(thread, NULL);
        pthread_mutex_lock(&lock);
        stub.foreign_result = call.result;
        pthread_mutex_unlock(&lock);
        return call.result == 0 ? FMSHIM_OK : FMSHIM_ERR_STOPPED;
    }
    case STEP_LATE: {
        struct late_call *call = calloc(1, sizeof *call);
        call->fn = on_event;
        call->user_data = user_data;
        call->bytes = copy_text(step->bytes, step->length);
        call->delay_ms = step->millis;
        call->result = -1;
        pthread_mutex_lock(&lock);
        if (stub.late_count < MAX_LATE) {
            stub.late[stub.late_count++] = call;
            pthread_create(&call->thread, NULL, late_main, call);
        } else {
            stub.violations++;
            free_text(&call->bytes);
            free(call);
        }
        pthread_mutex_unlock(&lock);
        return FMSHIM_OK;
    }
    }
    return FMSHIM_ERR_INTERNAL;
}

/* Waits while the respond gate is closed: the call is on its way in, its answer not started. */
static void wait_at_gate(void) {
    pthread_mutex_lock(&lock);
    if (stub.gate_closed) {
        stub.waiting_at_gate++;
        while (stub.gate_closed) {
            pthread_cond_wait(&gate_opened, &lock);
        }
        stub.waiting_at_gate--;
    }
    pthread_mutex_unlock(&lock);
}

/* Plays the script as the answer answer_id; the session is marked responding. */
static int32_t play_script(fmshim_session *session, int64_t answer_id, const char *prompt, int64_t prompt_length,
                           fmshim_event_fn on_event, void *user_data, char *detail, int64_t detail_capacity) {
    pthread_mutex_lock(&lock);
    int count = stub.step_count;
    struct step *steps = malloc(sizeof(struct step) * (count > 0 ? (size_t)count : 1));
    for (int i = 0; i < count; i++) {
        steps[i] = stub.steps[i];
        struct text t = copy_text(stub.steps[i].bytes, stub.steps[i].length);
        steps[i].bytes = t.bytes;
    }
    pthread_mutex_unlock(&lock);

    struct text own_prompt = {(char *)(prompt == NULL ? "" : prompt), prompt_length};
    int32_t status = FMSHIM_OK;
    for (int i = 0; i < count && status == FMSHIM_OK; i++) {
        if (is_cancelled(session, answer_id)) {
            status = FMSHIM_ERR_CANCELLED;
            break;
        }
        status = play(session, answer_id, &steps[i], &own_prompt, on_event, user_data, detail, detail_capacity);
    }
    /* No check after the last step: a cancel never turns a completed answer into a failure. */
    for (int i = 0; i < count; i++) {
        free(steps[i].bytes);
    }
    free(steps);
    return status;
}

int32_t fmshim_session_respond(fmshim_session *session, int64_t answer_id, const char *prompt, int64_t prompt_length,
                               fmshim_event_fn on_event, void *user_data, char *detail, int64_t detail_capacity) {
    if (session == NULL || on_event == NULL || (prompt == NULL && prompt_length > 0) || prompt_length < 0) {
        violation();
        put_detail("invalid arguments to fmshim_session_respond", detail, detail_capacity);
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    wait_at_gate();
    int expected = 0;
    if (!atomic_compare_exchange_strong(&session->responding, &expected, 1)) {
        put_detail("the session is already responding", detail, detail_capacity);
        return FMSHIM_ERR_BUSY;
    }
    if (answer_id <= 0 || answer_id <= session->last_answer_id) {
        violation();
        put_detail("answer ids must be positive and increase", detail, detail_capacity);
        atomic_store(&session->responding, 0);
        return FMSHIM_ERR_INVALID_ARGUMENT;
    }
    session->last_answer_id = answer_id;

    pthread_mutex_lock(&lock);
    stub.respond_calls++;
    free_text(&stub.last_prompt);
    stub.last_prompt = copy_text(prompt == NULL ? "" : prompt, prompt_length);
    int64_t wind_down_ms = stub.wind_down_ms;
    int64_t grace_ms = stub.wind_down_grace_ms;
    pthread_mutex_unlock(&lock);

    /* As the shim's answer gate: a new answer waits for a stopped generation to
       wind down, until the grace after the stop or a cancel of this answer. */
    while (!is_cancelled(session, answer_id) && now_ms() < session->winding_down_until
           && now_ms() < session->wait_until) {
        sleep_ms(2);
    }
    int32_t status;
    if (is_cancelled(session, answer_id)) {
        /* Cancelled before it started: the model is never asked. */
        status = FMSHIM_ERR_CANCELLED;
    } else if (now_ms() < session->winding_down_until) {
        put_detail("concurrentRequests: the session is still responding to an earlier request", detail,
                   detail_capacity);
        status = FMSHIM_ERR_CONCURRENT_REQUESTS;
    } else {
        status = play_script(session, answer_id, prompt, prompt_length, on_event, user_data, detail, detail_capacity);
        if (status == FMSHIM_ERR_CANCELLED || status == FMSHIM_ERR_STOPPED || status == FMSHIM_ERR_TOOL_FAILED) {
            /* A generation stopped early winds down for a while in the framework. */
            session->last_early_end_id = answer_id;
            int64_t stopped = now_ms();
            session->winding_down_until = stopped + wind_down_ms;
            session->wait_until = stopped + grace_ms;
        }
    }
    pthread_mutex_lock(&lock);
    stub.last_status = status;
    pthread_mutex_unlock(&lock);
    atomic_store(&session->responding, 0);
    return status;
}

/* ---- the scripting API ------------------------------------------------------------------------ */

static void clear_steps(void) {
    for (int i = 0; i < stub.step_count; i++) {
        free(stub.steps[i].bytes);
    }
    stub.step_count = 0;
}

void fmshim_test_reset(void) {
    fmshim_test_join_late_callbacks();
    pthread_mutex_lock(&lock);
    clear_steps();
    stub.availability = FMSHIM_AVAILABLE;
    stub.context_status = FMSHIM_OK;
    stub.context_tokens = 4096;
    stub.token_status = FMSHIM_OK;
    free_text(&stub.token_detail);
    free_text(&stub.languages);
    stub.languages = copy_cstring("[\"en-US\"]");
    stub.variant_status = FMSHIM_ERR_UNSUPPORTED;
    free_text(&stub.variant);
    stub.create_fail_status = FMSHIM_OK;
    free_text(&stub.create_fail_detail);
    stub.wind_down_ms = 0;
    stub.wind_down_grace_ms = 5000;
    stub.gate_closed = 0;
    pthread_cond_broadcast(&gate_opened);
    stub.events_delivered = 0;
    stub.last_status = -1;
    stub.cancel_calls = 0;
    stub.respond_calls = 0;
    stub.violations = 0;
    stub.foreign_result = -1;
    free_text(&stub.last_instructions);
    free_text(&stub.last_tool_name);
    free_text(&stub.last_tool_description);
    free_text(&stub.last_tool_schema);
    free_text(&stub.last_prompt);
    pthread_mutex_unlock(&lock);
}

void fmshim_test_set_availability(int32_t reason) {
    pthread_mutex_lock(&lock);
    stub.availability = reason;
    pthread_mutex_unlock(&lock);
}

void fmshim_test_set_context_size(int32_t status, int64_t tokens) {
    pthread_mutex_lock(&lock);
    stub.context_status = status;
    stub.context_tokens = tokens;
    pthread_mutex_unlock(&lock);
}

void fmshim_test_set_token_count(int32_t status, const char *detail) {
    pthread_mutex_lock(&lock);
    stub.token_status = status;
    free_text(&stub.token_detail);
    stub.token_detail = copy_cstring(detail);
    pthread_mutex_unlock(&lock);
}

void fmshim_test_set_languages(const char *json) {
    pthread_mutex_lock(&lock);
    free_text(&stub.languages);
    stub.languages = copy_cstring(json);
    pthread_mutex_unlock(&lock);
}

void fmshim_test_set_variant(int32_t status, const char *text) {
    pthread_mutex_lock(&lock);
    stub.variant_status = status;
    free_text(&stub.variant);
    stub.variant = copy_cstring(text);
    pthread_mutex_unlock(&lock);
}

void fmshim_test_fail_next_create(int32_t status, const char *detail) {
    pthread_mutex_lock(&lock);
    stub.create_fail_status = status;
    free_text(&stub.create_fail_detail);
    stub.create_fail_detail = copy_cstring(detail);
    pthread_mutex_unlock(&lock);
}

void fmshim_test_wind_down_after_early_end(int64_t wind_down_ms, int64_t grace_ms) {
    pthread_mutex_lock(&lock);
    stub.wind_down_ms = wind_down_ms;
    stub.wind_down_grace_ms = grace_ms;
    pthread_mutex_unlock(&lock);
}

void fmshim_test_close_respond_gate(void) {
    pthread_mutex_lock(&lock);
    stub.gate_closed = 1;
    pthread_mutex_unlock(&lock);
}

void fmshim_test_open_respond_gate(void) {
    pthread_mutex_lock(&lock);
    stub.gate_closed = 0;
    pthread_cond_broadcast(&gate_opened);
    pthread_mutex_unlock(&lock);
}

int64_t fmshim_test_waiting_at_gate(void) {
    return read_counter(&stub.waiting_at_gate);
}

void fmshim_test_script_clear(void) {
    pthread_mutex_lock(&lock);
    clear_steps();
    pthread_mutex_unlock(&lock);
}

void fmshim_test_script_delta(const char *bytes, int64_t length) {
    add_step(text_step(STEP_DELTA, bytes, length));
}

void fmshim_test_script_reset(const char *bytes, int64_t length) {
    add_step(text_step(STEP_RESET, bytes, length));
}

void fmshim_test_script_tool_call(const char *arguments_json) {
    add_step(text_step(STEP_TOOL, arguments_json, (int64_t)strlen(arguments_json)));
}

void fmshim_test_script_stale_tool_call(const char *arguments_json) {
    add_step(text_step(STEP_STALE_TOOL, arguments_json, (int64_t)strlen(arguments_json)));
}

void fmshim_test_script_echo_tool_result(const char *prefix) {
    add_step(text_step(STEP_ECHO, prefix, (int64_t)strlen(prefix)));
}

void fmshim_test_script_echo_prompt(const char *prefix) {
    add_step(text_step(STEP_PROMPT, prefix, (int64_t)strlen(prefix)));
}

void fmshim_test_script_fail(int32_t status, const char *detail) {
    struct step s = text_step(STEP_FAIL, detail, (int64_t)strlen(detail));
    s.status = status;
    add_step(s);
}

void fmshim_test_script_wait_for_cancel(int64_t timeout_ms) {
    add_step((struct step){.kind = STEP_WAIT_CANCEL, .millis = timeout_ms});
}

void fmshim_test_script_wait_for_file(const char *path, int64_t timeout_ms) {
    struct step s = text_step(STEP_WAIT_FILE, path, (int64_t)strlen(path));
    s.millis = timeout_ms;
    add_step(s);
}

void fmshim_test_script_foreign_delta(const char *bytes, int64_t length) {
    add_step(text_step(STEP_FOREIGN, bytes, length));
}

void fmshim_test_script_late_delta(const char *bytes, int64_t length, int64_t delay_ms) {
    struct step s = text_step(STEP_LATE, bytes, length);
    s.millis = delay_ms;
    add_step(s);
}

int32_t fmshim_test_join_late_callbacks(void) {
    pthread_mutex_lock(&lock);
    int count = stub.late_count;
    struct late_call *calls[MAX_LATE];
    memcpy(calls, stub.late, sizeof calls);
    stub.late_count = 0;
    pthread_mutex_unlock(&lock);
    int32_t last = -1;
    for (int i = 0; i < count; i++) {
        pthread_join(calls[i]->thread, NULL);
        last = calls[i]->result;
        free_text(&calls[i]->bytes);
        free(calls[i]);
    }
    return last;
}

static int64_t read_counter(const int64_t *counter) {
    pthread_mutex_lock(&lock);
    int64_t value = *counter;
    pthread_mutex_unlock(&lock);
    return value;
}

int64_t fmshim_test_live_sessions(void) {
    return read_counter(&stub.live_sessions);
}

int64_t fmshim_test_cancel_calls(void) {
    return read_counter(&stub.cancel_calls);
}

int64_t fmshim_test_respond_calls(void) {
    return read_counter(&stub.respond_calls);
}

int64_t fmshim_test_events_delivered(void) {
    return read_counter(&stub.events_delivered);
}

int32_t fmshim_test_last_status(void) {
    pthread_mutex_lock(&lock);
    int32_t value = stub.last_status;
    pthread_mutex_unlock(&lock);
    return value;
}

int64_t fmshim_test_contract_violations(void) {
    return read_counter(&stub.violations);
}

int32_t fmshim_test_last_foreign_result(void) {
    pthread_mutex_lock(&lock);
    int32_t value = stub.foreign_result;
    pthread_mutex_unlock(&lock);
    return value;
}

int64_t fmshim_test_last_text(const char *what, char *buffer, int64_t capacity) {
    struct text *t = NULL;
    if (strcmp(what, "instructions") == 0) {
        t = &stub.last_instructions;
    } else if (strcmp(what, "tool_name") == 0) {
        t = &stub.last_tool_name;
    } else if (strcmp(what, "tool_description") == 0) {
        t = &stub.last_tool_description;
    } else if (strcmp(what, "tool_schema") == 0) {
        t = &stub.last_tool_schema;
    } else if (strcmp(what, "prompt") == 0) {
        t = &stub.last_prompt;
    }
    if (t == NULL) {
        return -FMSHIM_ERR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    /* An absent text (NULL pointer received) reads as -1, an empty one as 0. */
    int64_t n = t->bytes == NULL ? -1 : put_text(t, buffer, capacity);
    pthread_mutex_unlock(&lock);
    return n;
}
