/* Prints the layout of the llama.h structs that aii passes by value, as this C compiler lays them out:
 * one line per struct ("<struct> size <bytes>") and per field ("<struct>.<field> <offset> <size>").
 * LayoutProbeTest compares them with the jextract bindings, so that a new llama.h cannot be misread. */
#include <stddef.h>
#include <stdio.h>

#include "llama.h"

#define FIELD(s, f) printf("%s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), sizeof(((struct s *) 0)->f))

int main(void) {
    printf("llama_model_params size %zu\n", sizeof(struct llama_model_params));
    FIELD(llama_model_params, devices);
    FIELD(llama_model_params, tensor_buft_overrides);
    FIELD(llama_model_params, n_gpu_layers);
    FIELD(llama_model_params, split_mode);
    FIELD(llama_model_params, load_mode);
    FIELD(llama_model_params, lazy_mode);
    FIELD(llama_model_params, main_gpu);
    FIELD(llama_model_params, tensor_split);
    FIELD(llama_model_params, progress_callback);
    FIELD(llama_model_params, progress_callback_user_data);
    FIELD(llama_model_params, kv_overrides);
    FIELD(llama_model_params, vocab_only);
    FIELD(llama_model_params, check_tensors);
    FIELD(llama_model_params, use_extra_bufts);
    FIELD(llama_model_params, no_host);
    FIELD(llama_model_params, no_alloc);
    FIELD(llama_model_params, load_mtp);
    printf("llama_context_params size %zu\n", sizeof(struct llama_context_params));
    FIELD(llama_context_params, n_ctx);
    FIELD(llama_context_params, n_batch);
    FIELD(llama_context_params, n_ubatch);
    FIELD(llama_context_params, n_seq_max);
    FIELD(llama_context_params, n_rs_seq);
    FIELD(llama_context_params, n_outputs_max);
    FIELD(llama_context_params, n_outputs_max_per_seq);
    FIELD(llama_context_params, n_threads);
    FIELD(llama_context_params, n_threads_batch);
    FIELD(llama_context_params, ctx_type);
    FIELD(llama_context_params, rope_scaling_type);
    FIELD(llama_context_params, pooling_type);
    FIELD(llama_context_params, attention_type);
    FIELD(llama_context_params, flash_attn_type);
    FIELD(llama_context_params, rope_freq_base);
    FIELD(llama_context_params, rope_freq_scale);
    FIELD(llama_context_params, yarn_ext_factor);
    FIELD(llama_context_params, yarn_attn_factor);
    FIELD(llama_context_params, yarn_beta_fast);
    FIELD(llama_context_params, yarn_beta_slow);
    FIELD(llama_context_params, yarn_orig_ctx);
    FIELD(llama_context_params, defrag_thold);
    FIELD(llama_context_params, cb_eval);
    FIELD(llama_context_params, cb_eval_user_data);
    FIELD(llama_context_params, type_k);
    FIELD(llama_context_params, type_v);
    FIELD(llama_context_params, abort_callback);
    FIELD(llama_context_params, abort_callback_data);
    FIELD(llama_context_params, embeddings);
    FIELD(llama_context_params, offload_kqv);
    FIELD(llama_context_params, no_perf);
    FIELD(llama_context_params, op_offload);
    FIELD(llama_context_params, swa_full);
    FIELD(llama_context_params, kv_unified);
    FIELD(llama_context_params, samplers);
    FIELD(llama_context_params, n_samplers);
    FIELD(llama_context_params, ctx_other);
    return 0;
}
