/*
 * Scripts the C stub of fmshim.h from environment variables when it is
 * loaded, for tests that run the aii command line as a separate process and
 * so cannot call the scripting functions of fmshim_test.h themselves. Only
 * the test stub does this; the real shim reads no environment.
 *
 * Read once, at load (the stub's defaults of fmshim_test_reset apply to
 * whatever is not set):
 *
 *   FMSHIM_STUB_AVAILABILITY  available | device_not_eligible | not_enabled
 *                             | model_not_ready | unknown
 *   FMSHIM_STUB_CONTEXT_SIZE  tokens (0: not known yet), or "unsupported"
 *   FMSHIM_STUB_TOKEN_COUNT   "unsupported" (otherwise one token per byte)
 *   FMSHIM_STUB_LANGUAGES     the JSON array fmshim_supported_languages gives
 *   FMSHIM_STUB_VARIANT       the variant's name (unset: unsupported)
 *   FMSHIM_STUB_WIND_DOWN_MS  ms: an answer that was stopped winds down this
 *                             long; the next respond waits for it (grace 5 s)
 *
 * and the answer every fmshim_session_respond plays, in this order, each
 * part only when its variable is set:
 *
 *   FMSHIM_STUB_ECHO_PROMPT   a DELTA with this prefix followed by the prompt
 *   FMSHIM_STUB_TOOL_CALL     a call of the session's tool with these JSON
 *                             arguments, then a DELTA with
 *                             FMSHIM_STUB_TOOL_RESULT_PREFIX (default empty)
 *                             followed by the tool's result
 *   FMSHIM_STUB_ANSWER        this text as DELTAs of FMSHIM_STUB_CHUNK bytes
 *                             (default 3, so UTF-8 sequences get split)
 *   FMSHIM_STUB_WAIT_FOR_FILE wait until this file exists (at most 60 s;
 *                             a cancel ends the answer)
 *   FMSHIM_STUB_THEN_ANSWER   more text, as FMSHIM_STUB_ANSWER
 *   FMSHIM_STUB_FAIL          "<status>:<detail>": end with that status
 *
 * A value the stub does not understand is reported on stderr and ignored.
 */
#include "fmshim.h"
#include "fmshim_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void not_understood(const char *name, const char *value) {
    fprintf(stderr, "fmshim stub: %s=%s is not understood\n", name, value);
}

static int parse_long(const char *text, long long *out) {
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (end == text || *end != '\0') {
        return 0;
    }
    *out = value;
    return 1;
}

static void availability(const char *value) {
    static const struct {
        const char *name;
        int32_t reason;
    } reasons[] = {
        {"available", FMSHIM_AVAILABLE},
        {"device_not_eligible", FMSHIM_UNAVAILABLE_DEVICE_NOT_ELIGIBLE},
        {"not_enabled", FMSHIM_UNAVAILABLE_NOT_ENABLED},
        {"model_not_ready", FMSHIM_UNAVAILABLE_MODEL_NOT_READY},
        {"unknown", FMSHIM_UNAVAILABLE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (strcmp(value, reasons[i].name) == 0) {
            fmshim_test_set_availability(reasons[i].reason);
            return;
        }
    }
    not_understood("FMSHIM_STUB_AVAILABILITY", value);
}

static void context_size(const char *value) {
    long long tokens;
    if (strcmp(value, "unsupported") == 0) {
        fmshim_test_set_context_size(FMSHIM_ERR_UNSUPPORTED, 0);
    } else if (parse_long(value, &tokens) && tokens >= 0) {
        fmshim_test_set_context_size(FMSHIM_OK, tokens);
    } else {
        not_understood("FMSHIM_STUB_CONTEXT_SIZE", value);
    }
}

/* text as DELTA steps of at most chunk bytes each. */
static void chunked(const char *text, int64_t chunk) {
    int64_t length = (int64_t)strlen(text);
    for (int64_t at = 0; at < length; at += chunk) {
        int64_t n = length - at < chunk ? length - at : chunk;
        fmshim_test_script_delta(text + at, n);
    }
}

static void fail(const char *value) {
    long long status;
    const char *colon = strchr(value, ':');
    char code[16] = {0};
    size_t digits = colon == NULL ? strlen(value) : (size_t)(colon - value);
    if (digits == 0 || digits >= sizeof code) {
        not_understood("FMSHIM_STUB_FAIL", value);
        return;
    }
    memcpy(code, value, digits);
    if (!parse_long(code, &status) || status <= 0) {
        not_understood("FMSHIM_STUB_FAIL", value);
        return;
    }
    fmshim_test_script_fail((int32_t)status, colon == NULL ? "" : colon + 1);
}

__attribute__((constructor)) static void script_from_environment(void) {
    fmshim_test_reset();
    const char *value;
    if ((value = getenv("FMSHIM_STUB_AVAILABILITY")) != NULL) {
        availability(value);
    }
    if ((value = getenv("FMSHIM_STUB_CONTEXT_SIZE")) != NULL) {
        context_size(value);
    }
    if ((value = getenv("FMSHIM_STUB_TOKEN_COUNT")) != NULL) {
        if (strcmp(value, "unsupported") == 0) {
            fmshim_test_set_token_count(FMSHIM_ERR_UNSUPPORTED, NULL);
        } else {
            not_understood("FMSHIM_STUB_TOKEN_COUNT", value);
        }
    }
    if ((value = getenv("FMSHIM_STUB_LANGUAGES")) != NULL) {
        fmshim_test_set_languages(value);
    }
    if ((value = getenv("FMSHIM_STUB_VARIANT")) != NULL) {
        fmshim_test_set_variant(FMSHIM_OK, value);
    }

    if ((value = getenv("FMSHIM_STUB_WIND_DOWN_MS")) != NULL) {
        long long n;
        if (parse_long(value, &n) && n >= 0 && n <= 600000) {
            fmshim_test_wind_down_after_early_end((int64_t)n, 5000);
        } else {
            not_understood("FMSHIM_STUB_WIND_DOWN_MS", value);
        }
    }

    int64_t chunk = 3;
    if ((value = getenv("FMSHIM_STUB_CHUNK")) != NULL) {
        long long n;
        if (parse_long(value, &n) && n > 0) {
            chunk = n;
        } else {
            not_understood("FMSHIM_STUB_CHUNK", value);
        }
    }
    if ((value = getenv("FMSHIM_STUB_ECHO_PROMPT")) != NULL) {
        fmshim_test_script_echo_prompt(value);
    }
    if ((value = getenv("FMSHIM_STUB_TOOL_CALL")) != NULL) {
        fmshim_test_script_tool_call(value);
        const char *prefix = getenv("FMSHIM_STUB_TOOL_RESULT_PREFIX");
        fmshim_test_script_echo_tool_result(prefix == NULL ? "" : prefix);
    }
    if ((value = getenv("FMSHIM_STUB_ANSWER")) != NULL) {
        chunked(value, chunk);
    }
    if ((value = getenv("FMSHIM_STUB_WAIT_FOR_FILE")) != NULL) {
        fmshim_test_script_wait_for_file(value, 60000);
    }
    if ((value = getenv("FMSHIM_STUB_THEN_ANSWER")) != NULL) {
        chunked(value, chunk);
    }
    if ((value = getenv("FMSHIM_STUB_FAIL")) != NULL) {
        fail(value);
    }
}
