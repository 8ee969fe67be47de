// Chat templates, rendered turns and the parsing of answers, by libllama-common as llama-server does them.

#include "aiillama_internal.h"

using aiillama::copy_out;
using aiillama::fail;
using aiillama::guarded;

extern "C" {

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

int32_t aiillama_turn_feed(aiillama_turn * turn, const char * text, int64_t text_length, char * buffer,
        int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_PARSE, buffer, capacity, length, [&]() -> int32_t {
        if (turn == nullptr || text == nullptr || text_length < 0) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no turn or text", buffer, capacity, length);
        }
        turn->answer.append(text, (size_t) text_length);
        std::string added;
        try {
            common_chat_msg msg = common_chat_parse(turn->answer, true, turn->parser);
            if (msg.content.size() > turn->shown.size() && msg.content.compare(0, turn->shown.size(), turn->shown) == 0) {
                added = msg.content.substr(turn->shown.size());
                // Given out only when it fits: the caller asks again, with no new text, with room for it.
                if ((int64_t) added.size() < capacity) {
                    turn->shown = msg.content;
                }
            }
        } catch (const std::exception &) {
            // a half-written answer may not parse yet; the next piece may complete it
        }
        copy_out(added, buffer, capacity, length);
        return AIILLAMA_OK;
    });
}

int32_t aiillama_turn_finish(aiillama_turn * turn, char * buffer, int64_t capacity, int64_t * length) {
    return guarded(AIILLAMA_ERR_PARSE, buffer, capacity, length, [&]() -> int32_t {
        if (turn == nullptr) {
            return fail(AIILLAMA_ERR_INVALID_ARGUMENT, "no turn", buffer, capacity, length);
        }
        common_chat_msg msg = common_chat_parse(turn->answer, false, turn->parser);
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

}  // extern "C"
