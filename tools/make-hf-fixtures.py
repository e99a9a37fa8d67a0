#!/usr/bin/env python3
# Writes tests/data/hf/*.json: one Hugging Face config.json per model of the
# reference table the project was seeded with, rebuilt from its shape fields
# under the key names (and nesting) the real configs use, so that
# tests/test-hf-config.c can check the importer against the catalog and the
# reference parameter counts without reading the reference at test time.
#
# This is a developer tool: the build and the tests never run it; they read
# the committed JSON.  Usage: tools/make-hf-fixtures.py docs/reference
#
# The configs deliberately differ in the ways real ones do: head_dim is
# left out where it equals hidden/heads, Gemma 2 and Command R 08-2024 rely
# on the default tie_word_embeddings, Qwen2.5 carries a sliding_window
# that use_sliding_window switches off, gemma-3-4b omits what
# Gemma3TextConfig defaults (as the shipped config does), gemma-3-27b and
# Qwen3-32B use layer_types, and falcon-7b has the num_kv_heads that HF
# ignores for multi_query models.
import json, os, sys

ref = sys.argv[1]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data', 'hf')
os.makedirs(out, exist_ok=True)

CLASSES = {
    'glm4': 'Glm4ForCausalLM',
    'llama': 'LlamaForCausalLM',
    'qwen2': 'Qwen2ForCausalLM',
    'qwen3': 'Qwen3ForCausalLM',
    'qwen3_moe': 'Qwen3MoeForCausalLM',
    'mistral': 'MistralForCausalLM',
    'mixtral': 'MixtralForCausalLM',
    'gemma2': 'Gemma2ForCausalLM',
    'gemma3': 'Gemma3ForConditionalGeneration',
    'phi3': 'Phi3ForCausalLM',
    'deepseek_v2': 'DeepseekV2ForCausalLM',
    'deepseek_v3': 'DeepseekV3ForCausalLM',
    'gpt_oss': 'GptOssForCausalLM',
    'cohere': 'CohereForCausalLM',
    'falcon': 'FalconForCausalLM',
}

# Gemma3TextConfig defaults that the shipped multimodal configs leave out.
GEMMA3_TEXT_DEFAULTS = {
    'vocab_size': 262208, 'max_position_embeddings': 131072,
    'num_attention_heads': 8, 'num_key_value_heads': 4, 'head_dim': 256,
    'sliding_window_pattern': 6,
}


def fixture_name(model_id):
    return model_id.replace('/', '--') + '.json'


def base(x):
    c = {
        '_name_or_path': x['id'],
        'architectures': [CLASSES[x['model_type']]],
        'model_type': x['model_type'],
        'hidden_size': x['hidden_size'],
        'intermediate_size': x['intermediate_size'],
        'num_hidden_layers': x['num_hidden_layers'],
        'num_attention_heads': x['num_attention_heads'],
        'num_key_value_heads': x['num_key_value_heads'],
        'vocab_size': x['vocab_size'],
        'max_position_embeddings': x['max_position_embeddings'],
        'tie_word_embeddings': x['tie_word_embeddings'],
    }
    hd = x.get('head_dim')
    if hd is not None and hd != x['hidden_size'] // x['num_attention_heads']:
        c['head_dim'] = hd
    for k in ('rope_theta', 'rope_scaling', 'rms_norm_eps', 'partial_rotary_factor'):
        if x.get(k) is not None:
            c[k] = x[k]
    c['torch_dtype'] = 'bfloat16'
    return c


def sliding_all(c, x):
    c['sliding_window'] = x.get('sliding_window')


def make(x):
    mt = x['model_type']
    L = x['num_hidden_layers']
    c = base(x)

    if mt == 'glm4':
        c['head_dim'] = x['head_dim']
        c['attention_bias'] = x['attention_bias']
    elif mt == 'llama':
        c['attention_bias'] = False
        c['mlp_bias'] = False
        if x['id'].startswith('tiiuae/'):
            c['head_dim'] = x['head_dim']
    elif mt == 'qwen2':
        # Qwen2.5 instruct configs ship a window that is switched off.
        c['sliding_window'] = 131072
        c['use_sliding_window'] = False
        c['max_window_layers'] = L
    elif mt in ('qwen3', 'qwen3_moe'):
        c['head_dim'] = x['head_dim']
        c['attention_bias'] = False
        c['sliding_window'] = None
        c['use_sliding_window'] = False
        c['max_window_layers'] = L
        if x['id'] == 'Qwen/Qwen3-32B':
            c['layer_types'] = ['full_attention'] * L
        if mt == 'qwen3_moe':
            c['num_experts'] = x['num_experts']
            c['num_experts_per_tok'] = x['num_experts_per_tok']
            c['moe_intermediate_size'] = x['moe_intermediate_size']
            c['decoder_sparse_step'] = 1
            c['mlp_only_layers'] = []
            c['norm_topk_prob'] = True
    elif mt == 'mistral':
        sliding_all(c, x)
    elif mt == 'mixtral':
        sliding_all(c, x)
        c['num_local_experts'] = x['num_local_experts']
        c['num_experts_per_tok'] = x['num_experts_per_tok']
        c['router_aux_loss_coef'] = 0.02
    elif mt == 'gemma2':
        del c['tie_word_embeddings']        # Gemma ties by default
        c['head_dim'] = x['head_dim']
        c['sliding_window'] = x['sliding_window']
        c['query_pre_attn_scalar'] = x['query_pre_attn_scalar']
        c['attn_logit_softcapping'] = x['attn_logit_softcapping']
        c['final_logit_softcapping'] = x['final_logit_softcapping']
        c['cache_implementation'] = 'hybrid'
    elif mt == 'gemma3':
        text = {k: v for k, v in c.items()
                if k not in ('_name_or_path', 'architectures', 'torch_dtype')}
        text['model_type'] = 'gemma3_text'
        text['head_dim'] = x['head_dim']
        text['sliding_window'] = x['sliding_window']
        text['query_pre_attn_scalar'] = x['query_pre_attn_scalar']
        del text['tie_word_embeddings']
        if x['id'].endswith('-27b-it'):
            p = x['sliding_window_pattern']
            text['layer_types'] = ['full_attention' if (i + 1) % p == 0
                                   else 'sliding_attention' for i in range(L)]
        else:
            text['sliding_window_pattern'] = x['sliding_window_pattern']
        if x['id'].endswith('-4b-it'):
            for k, v in GEMMA3_TEXT_DEFAULTS.items():
                if text.get(k) == v:
                    del text[k]
        c = {
            '_name_or_path': x['id'],
            'architectures': [CLASSES[mt]],
            'model_type': 'gemma3',
            'boi_token_index': 255999,
            'eoi_token_index': 256000,
            'image_token_index': 262144,
            'mm_tokens_per_image': 256,
            'text_config': text,
            'vision_config': {
                'model_type': 'siglip_vision_model',
                'hidden_size': 1152,
                'intermediate_size': 4304,
                'num_hidden_layers': 27,
                'num_attention_heads': 16,
                'image_size': 896,
                'patch_size': 14,
                'vision_use_head': False,
            },
            'torch_dtype': 'bfloat16',
        }
    elif mt == 'phi3':
        sliding_all(c, x)
        c['original_max_position_embeddings'] = x['max_position_embeddings']
    elif mt in ('deepseek_v2', 'deepseek_v3'):
        c.pop('head_dim', None)
        for k in ('moe_intermediate_size', 'n_routed_experts', 'n_shared_experts',
                  'num_experts_per_tok', 'first_k_dense_replace', 'kv_lora_rank',
                  'q_lora_rank', 'qk_rope_head_dim', 'qk_nope_head_dim', 'v_head_dim'):
            c[k] = x[k]
        c['moe_layer_freq'] = 1
        c['attention_bias'] = False
        if mt == 'deepseek_v3':
            for k in ('num_nextn_predict_layers', 'n_group', 'topk_group',
                      'routed_scaling_factor', 'scoring_func'):
                c[k] = x[k]
            c['topk_method'] = 'noaux_tc'
        else:
            c['topk_method'] = 'greedy'
    elif mt == 'gpt_oss':
        c['head_dim'] = x['head_dim']
        c['attention_bias'] = True
        c['num_local_experts'] = x['num_local_experts']
        c['num_experts_per_tok'] = x['num_experts_per_tok']
        c['experts_per_token'] = x['num_experts_per_tok']
        c['sliding_window'] = x['sliding_window']
        c['layer_types'] = ['sliding_attention' if i % 2 == 0 else 'full_attention'
                            for i in range(L)]
        c['initial_context_length'] = x['initial_context_length']
        c['swiglu_limit'] = 7.0
    elif mt == 'cohere':
        if x['id'].endswith('08-2024'):
            del c['tie_word_embeddings']    # absent there; Cohere ties by default
        c['logit_scale'] = x['logit_scale']
        c['use_qk_norm'] = x['use_qk_norm']
        c['layer_norm_eps'] = 1e-05
        if x.get('model_max_length'):
            c['model_max_length'] = x['model_max_length']
    elif mt == 'falcon':
        # The original falcon-7b config: no intermediate_size (the MLP is
        # 4 * hidden), no max_position_embeddings (2048 by default), and a
        # num_kv_heads that HF ignores because multi_query is set.
        assert x['intermediate_size'] == 4 * x['hidden_size']
        assert x['max_position_embeddings'] == 2048
        for k in ('intermediate_size', 'max_position_embeddings', 'num_key_value_heads'):
            del c[k]
        c['num_kv_heads'] = x['num_attention_heads']
        c['multi_query'] = x['multi_query']
        c['new_decoder_architecture'] = x['new_decoder_architecture']
        c['parallel_attn'] = x['parallel_attn']
        c['bias'] = False
        c['alibi'] = False
        c['layer_norm_epsilon'] = 1e-05
    else:
        raise SystemExit('no fixture rule for model_type ' + mt)
    return c


models = json.load(open(os.path.join(ref, 'models.json')))['models']
for x in models:
    if 'model_type' not in x:
        raise SystemExit(x['id'] + ': no model_type')
    with open(os.path.join(out, fixture_name(x['id'])), 'w') as f:
        json.dump(make(x), f, indent=2)
        f.write('\n')

# The golden table for tests/test-hf-config.c, printed for pasting.
for x in models:
    total = x['computed_params']
    active = x.get('computed_active_params', total)
    print('  { "%s", %.0f, %.0f },' % (fixture_name(x['id']), total, active))
print(len(models), 'fixtures in', os.path.normpath(out), file=sys.stderr)
