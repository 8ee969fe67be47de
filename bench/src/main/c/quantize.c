/* Quantizes a GGUF model with llama.cpp's own llama_model_quantize (the prebuilt libllama):
 *   quantize IN.gguf OUT.gguf   -> Q4_K_M, as llama-quantize IN OUT Q4_K_M does. */
#include <stdio.h>

#include "llama.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: quantize IN.gguf OUT.gguf\n");
        return 2;
    }
    llama_backend_init();
    struct llama_model_quantize_params params = llama_model_quantize_default_params();
    params.ftype = LLAMA_FTYPE_MOSTLY_Q4_K_M;
    params.nthread = 0;
    uint32_t status = llama_model_quantize(argv[1], argv[2], &params);
    if (status != 0) {
        fprintf(stderr, "quantize: llama_model_quantize failed (%u)\n", status);
        return 1;
    }
    return 0;
}
