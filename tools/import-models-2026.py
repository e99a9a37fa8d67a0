#!/usr/bin/env python3
# Adds the newest releases of the dense and MoE families the catalog already
# represents (issue 25, item 5): one config.json fixture per model in
# tests/data/hf, transcribed from the source named in its "_source", and a
# catalog entry made from it by the built `headroom-cli inspect FILE --json`
# (so shapes and parameter counts are the importer's own, never typed).
#
# Most of these models share a published shape with a model already in the
# catalog (a Thinking twin of an Instruct release, a re-release such as
# DeepSeek-V3-0324 or Kimi-K2-Instruct-0905, a fine-tune such as
# gpt-oss-safeguard or Llama-3.1-Nemotron-70B): their fixture is that
# model's config with the values the new card changes (the context), and
# "_source" says so.  The others are litgpt's transcriptions of the
# official configs (github Lightning-AI/litgpt litgpt/config.py @26857050,
# each with the line) or a model card's architecture table checked against
# the card's published parameter count.
#
# Left out, the estimator cannot represent them faithfully (no weights
# recipe or layer layout for the architecture): Llama 4 (interleaved MoE and
# dense layers, chunked attention, NoPE layers), DeepSeek-V3.2-Exp (the
# lightning indexer's cache), Gemma 3n (per-layer embeddings, AltUp, KV
# sharing), MiniMax-M2, ERNIE 4.5, Hunyuan-A13B, EXAONE 4.0, OLMo 3
# (olmo3: sliding-window layers the olmo2 recipe lacks) and
# Llama-3.3-Nemotron-Super-49B (deci: per-layer shapes).  Magistral Small
# and Command A were left out because no copy of their config.json could be
# read to check the context they declare (Magistral's card gives 128k but
# advises 40k).
#
# A developer tool: the build, the app and the tests never run it; they read
# the committed JSON.  Usage: tools/import-models-2026.py [HEADROOM_CLI]
import copy, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, '..')
cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, '_build', 'src', 'cli',
                                                         'headroom-cli')
catalog_path = os.path.join(root, 'resources', 'catalog', 'models.json')
fixtures = os.path.join(root, 'tests', 'data', 'hf')
LITGPT = 'github Lightning-AI/litgpt litgpt/config.py @26857050'
# The new entries go, as one block, after this one (not at the end of the
# array, where other additions go).
AFTER = 'moonshotai/Kimi-K2-Instruct'


def fixture(model_id):
    return json.load(open(os.path.join(fixtures, model_id.replace('/', '--') + '.json')))


def like(base, changes=None, drop=()):
    """The shape keys of an existing fixture, with @changes."""
    c = {k: v for k, v in fixture(base).items() if not k.startswith('_') and k not in drop}
    c.update(changes or {})
    return c


def litgpt(line, model_type, arch, layers, hidden, heads, kv, inter, vocab, ctx, tied,
           rope, head_dim=None, extra=None):
    c = {'architectures': [arch], 'model_type': model_type, 'hidden_size': hidden,
         'num_hidden_layers': layers, 'num_attention_heads': heads,
         'num_key_value_heads': kv, 'intermediate_size': inter, 'vocab_size': vocab,
         'max_position_embeddings': ctx, 'rope_theta': rope, 'tie_word_embeddings': tied}
    if head_dim:
        c['head_dim'] = head_dim
    c.update(extra or {})
    return c


def lit_source(line, cites):
    return ('%s line %d (derived: litgpt transcription of the HF config; litgpt cites '
            'https://huggingface.co/%s/blob/main/config.json)' % (LITGPT, line, cites))


# A copy of the lmstudio-community card of DeepSeek-R1-0528-Qwen3-8B's GGUF files:
R1_QWEN3_CARD = 'https://github.com/JoseAdrianRodriguezGonzalez/Llm-Component/blob/HEAD/Accepted/lmstudio-community__DeepSeek-R1-0528-Qwen3-8B-GGUF/README.md'
QWEN2 = dict(model_type='qwen2', arch='Qwen2ForCausalLM')
LLAMA = dict(model_type='llama', arch='LlamaForCausalLM')

# (id, name, family, license, release, ollama_tag, config, source)
MODELS = []


def add(mid, name, family, license, release, tag, config, source):
    MODELS.append((mid, name, family, license, release, tag, config, source))


# ---- Qwen3 2507 Thinking: the Instruct-2507 shapes (litgpt gives both
# variants one entry, "Qwen3-…-{}-2507", citing the Thinking config).
add('Qwen/Qwen3-4B-Thinking-2507', 'Qwen3 4B Thinking 2507', 'Qwen3-2507', 'Apache-2.0',
    '2025-Q3', None, like('Qwen/Qwen3-4B-Instruct-2507'), lit_source(2990, 'Qwen/Qwen3-4B-Thinking-2507'))
add('Qwen/Qwen3-30B-A3B-Thinking-2507', 'Qwen3 30B-A3B Thinking 2507', 'Qwen3-2507',
    'Apache-2.0', '2025-Q3', None, like('Qwen/Qwen3-30B-A3B-Instruct-2507'),
    lit_source(2965, 'Qwen/Qwen3-30B-A3B-Thinking-2507'))
add('Qwen/Qwen3-235B-A22B-Thinking-2507', 'Qwen3 235B-A22B Thinking 2507', 'Qwen3-2507',
    'Apache-2.0', '2025-Q3', None, like('Qwen/Qwen3-235B-A22B-Instruct-2507'),
    lit_source(2940, 'Qwen/Qwen3-235B-A22B-Thinking-2507'))

# ---- Qwen2.5: the small and the 1M-context releases.
add('Qwen/Qwen2.5-0.5B-Instruct', 'Qwen2.5 0.5B Instruct', 'Qwen2.5', 'Apache-2.0', '2024-Q3',
    None,
    litgpt(2264, 'qwen2', 'Qwen2ForCausalLM', 24, 896, 14, 2, 4864, 151936, 32768, True, 1000000,
           extra={'attention_bias': True}),
    lit_source(2264, 'Qwen/Qwen2.5-0.5B') + '; tie_word_embeddings: the card\'s 0.49B, '
    '0.36B without embeddings')
add('Qwen/Qwen2.5-Coder-0.5B-Instruct', 'Qwen2.5 Coder 0.5B Instruct', 'Qwen2.5-Coder',
    'Apache-2.0', '2024-Q4', None,
    litgpt(2414, 'qwen2', 'Qwen2ForCausalLM', 24, 896, 14, 2, 4864, 151936, 32768, True, 1000000,
           extra={'attention_bias': True}),
    lit_source(2414, 'Qwen/Qwen2.5-Coder-0.5B') + '; tie_word_embeddings: the card\'s 0.49B, '
    '0.36B without embeddings')
add('Qwen/Qwen2.5-Coder-3B-Instruct', 'Qwen2.5 Coder 3B Instruct', 'Qwen2.5-Coder',
    'Qwen Research License', '2024-Q4', None,
    litgpt(2456, 'qwen2', 'Qwen2ForCausalLM', 36, 2048, 16, 2, 11008, 151936, 32768, True, 1000000,
           extra={'attention_bias': True}),
    lit_source(2456, 'Qwen/Qwen2.5-Coder-3B') + '; tie_word_embeddings: the card\'s 3.09B, '
    '2.77B without embeddings')
add('Qwen/Qwen2.5-7B-Instruct-1M', 'Qwen2.5 7B Instruct 1M', 'Qwen2.5-1M', 'Apache-2.0',
    '2025-Q1', None,
    litgpt(2620, 'qwen2', 'Qwen2ForCausalLM', 28, 3584, 28, 4, 18944, 152064, 1010000, False,
           10000000, extra={'attention_bias': True}),
    lit_source(2620, 'Qwen/Qwen2.5-7B-Instruct-1M'))
add('Qwen/Qwen2.5-14B-Instruct-1M', 'Qwen2.5 14B Instruct 1M', 'Qwen2.5-1M', 'Apache-2.0',
    '2025-Q1', None,
    litgpt(2641, 'qwen2', 'Qwen2ForCausalLM', 48, 5120, 40, 8, 13824, 152064, 1010000, False,
           10000000, extra={'attention_bias': True}),
    lit_source(2641, 'Qwen/Qwen2.5-14B-Instruct-1M'))

# ---- DeepSeek: re-releases of the V3 shape, and R1-0528's Qwen3-8B distill.
add('deepseek-ai/DeepSeek-V3-0324', 'DeepSeek V3 0324', 'DeepSeek-V3', 'MIT', '2025-Q1',
    None, like('deepseek-ai/DeepSeek-V3'),
    'the DeepSeek-V3 config (https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json): '
    'the 0324 update is a post-training update of DeepSeek-V3 and keeps its architecture '
    '(derived)')
add('deepseek-ai/DeepSeek-V3.1-Terminus', 'DeepSeek V3.1 Terminus', 'DeepSeek-V3', 'MIT',
    '2025-Q3', None, like('deepseek-ai/DeepSeek-V3.1'),
    'the DeepSeek-V3.1 config: the Terminus card says its structure is the same as '
    'DeepSeek-V3.1 (derived)')
add('deepseek-ai/DeepSeek-R1-0528-Qwen3-8B', 'DeepSeek R1 0528 Qwen3 8B', 'DeepSeek-R1-Distill',
    'MIT', '2025-Q2', None,
    like('Qwen/Qwen3-8B', {'max_position_embeddings': 131072}),
    'the Qwen3-8B config (the card: "post-train Qwen3 8B Base"; its architecture is Qwen3-8B\'s); '
    'max_position_embeddings: 128K, the context the lmstudio-community GGUF card gives (a copy '
    'at ' + R1_QWEN3_CARD + ') (derived)')

# ---- Kimi K2 updates: the K2 shape, 256K context (cards' "Context Length 256K").
add('moonshotai/Kimi-K2-Instruct-0905', 'Kimi K2 Instruct 0905', 'Kimi K2', 'Modified MIT',
    '2025-Q3', None, like('moonshotai/Kimi-K2-Instruct', {'max_position_embeddings': 262144}),
    'the Kimi-K2-Instruct config; the 0905 card\'s Model Summary gives the same shape (61 layers, '
    '1 dense, hidden 7168, expert 2048, 64 heads, 384 experts, 8 selected, 1 shared, 160K vocab, '
    'MLA) and a 256K context (derived)')
add('moonshotai/Kimi-K2-Thinking', 'Kimi K2 Thinking', 'Kimi K2', 'Modified MIT', '2025-Q4',
    None, like('moonshotai/Kimi-K2-Instruct', {'max_position_embeddings': 262144}),
    'the Kimi-K2-Instruct config: the Thinking card gives the same Model Summary and a 256K '
    'context; its routed experts ship as INT4 (derived)')

# ---- GLM-Z1: the GLM-4-0414 reasoning twins (same release, same shapes).
add('THUDM/GLM-Z1-9B-0414', 'GLM-Z1-9B-0414', 'GLM-4-0414', 'MIT', '2025-Q2', None,
    like('THUDM/GLM-4-9B-0414'),
    'the GLM-4-9B-0414 config: GLM-Z1 is the 0414 series\' reasoning model on the same base '
    '(derived)')
add('THUDM/GLM-Z1-32B-0414', 'GLM-Z1-32B-0414', 'GLM-4-0414', 'MIT', '2025-Q2', None,
    like('THUDM/GLM-4-32B-0414'),
    'the GLM-4-32B-0414 config: GLM-Z1 is the 0414 series\' reasoning model on the same base '
    '(derived)')

# ---- Mistral Large 2 (2407): litgpt's transcription.
add('mistralai/Mistral-Large-Instruct-2407', 'Mistral Large Instruct 2407', 'Mistral Large',
    'Mistral Research License', '2024-Q3', None,
    like('mistralai/Mistral-Large-Instruct-2411'),
    lit_source(2133, 'mistralai/Mistral-Large-Instruct-2407') + '; the same shape as 2411\'s')

# ---- Devstral Small: Mistral Small 3.1's text model without its vision
# encoder ("fine-tuned from Mistral-Small-3.1 … text-only, and the vision
# encoder was removed"; 128k context; Tekken tokenizer of 131k).
MISTRAL_SMALL_31_TEXT = dict(fixture('mistralai/Mistral-Small-3.1-24B-Instruct-2503')['text_config'],
                             architectures=['MistralForCausalLM'], tie_word_embeddings=False)
add('mistralai/Devstral-Small-2505', 'Devstral Small 2505', 'Devstral', 'Apache-2.0', '2025-Q2',
    None, MISTRAL_SMALL_31_TEXT,
    'the text_config of the Mistral-Small-3.1-24B-Instruct-2503 config as a MistralForCausalLM: '
    'the Devstral-Small-2505 card says it is fine-tuned from Mistral-Small-3.1 with the vision '
    'encoder removed, a 128k context and a 131k Tekken vocabulary (derived)')

add('mistralai/Devstral-Small-2507', 'Devstral Small 2507', 'Devstral', 'Apache-2.0', '2025-Q3',
    None, MISTRAL_SMALL_31_TEXT,
    'the text_config of the Mistral-Small-3.1-24B-Instruct-2503 config as a MistralForCausalLM: '
    'the Devstral Small 1.1 card (2507; a copy at https://huggingface.co/unsloth/Devstral-Small-2507) '
    'says it is fine-tuned from Mistral-Small-3.1 with the vision encoder removed and a context '
    'of up to 128k tokens (derived)')

# ---- gpt-oss-safeguard: fine-tunes of gpt-oss ("base_model_relation: finetune").
add('openai/gpt-oss-safeguard-20b', 'gpt-oss-safeguard-20b', 'gpt-oss', 'Apache-2.0',
    '2025-Q4', None, like('openai/gpt-oss-20b'),
    'the gpt-oss-20b config: the card (base_model openai/gpt-oss-20b, base_model_relation '
    'finetune) gives the same 21B / 3.6B active (derived)')
add('openai/gpt-oss-safeguard-120b', 'gpt-oss-safeguard-120b', 'gpt-oss', 'Apache-2.0',
    '2025-Q4', None, like('openai/gpt-oss-120b'),
    'the gpt-oss-120b config: the card gives the same 117B / 5.1B active (derived)')

# ---- Gemma 3: the instruction-tuned 270M.
add('google/gemma-3-270m-it', 'Gemma 3 270M IT', 'Gemma 3', 'Gemma Terms of Use', '2025-Q3',
    'gemma3:270m', like('google/gemma-3-270m'),
    'the gemma-3-270m shape (the instruction-tuned checkpoint of the same model)')

# ---- Llama 3.1 fine-tunes people run.
add('nvidia/Llama-3.1-Nemotron-70B-Instruct-HF', 'Llama 3.1 Nemotron 70B Instruct', 'Nemotron',
    'Llama 3.1 Community License', '2024-Q4', None,
    like('meta-llama/Llama-3.1-70B-Instruct'),
    lit_source(928, 'nvidia/Llama-3.1-Nemotron-70B-Instruct-HF') + '; the Llama-3.1-70B shape')
add('nvidia/Llama-3.1-Nemotron-Nano-8B-v1', 'Llama 3.1 Nemotron Nano 8B v1', 'Nemotron',
    'NVIDIA Open Model License + Llama 3.1 Community License', '2025-Q1', None,
    like('meta-llama/Llama-3.1-8B-Instruct'),
    'the Llama-3.1-8B-Instruct config: the card calls it a derivative of Meta '
    'Llama-3.1-8B-Instruct with a 128K context (derived)')
add('NousResearch/Hermes-3-Llama-3.1-8B', 'Hermes 3 Llama 3.1 8B', 'Hermes 3',
    'Llama 3.1 Community License', '2024-Q3', None,
    like('meta-llama/Llama-3.1-8B-Instruct'),
    'the Llama-3.1-8B config: a full fine-tune of Llama-3.1-8B (derived)')
add('meta-llama/Llama-Guard-3-8B', 'Llama Guard 3 8B', 'Llama Guard 3',
    'Llama 3.1 Community License', '2024-Q3', None,
    like('meta-llama/Llama-3.1-8B-Instruct'),
    'the Llama-3.1-8B config: the card says it is Llama-3.1-8B fine-tuned for safety '
    'classification (derived)')

# ---- Phi-4 reasoning plus.
add('microsoft/Phi-4-reasoning-plus', 'Phi-4 reasoning plus', 'Phi-4', 'MIT', '2025-Q2',
    None, like('microsoft/Phi-4-reasoning'),
    lit_source(1905, 'microsoft/Phi-4-reasoning-plus'))

# ---- SmolLM2 small sizes.
add('HuggingFaceTB/SmolLM2-135M-Instruct', 'SmolLM2 135M Instruct', 'SmolLM2', 'Apache-2.0',
    '2024-Q4', 'smollm2:135m',
    litgpt(3079, 'llama', 'LlamaForCausalLM', 30, 576, 9, 3, 1536, 49152, 8192, True, 100000),
    lit_source(3079, 'HuggingFaceTB/SmolLM2-135M-Instruct') + '; tied head as SmolLM2-1.7B\'s '
    '(the card\'s 135M)')
add('HuggingFaceTB/SmolLM2-360M-Instruct', 'SmolLM2 360M Instruct', 'SmolLM2', 'Apache-2.0',
    '2024-Q4', 'smollm2:360m',
    litgpt(3099, 'llama', 'LlamaForCausalLM', 32, 960, 15, 5, 2560, 49152, 8192, True, 100000),
    lit_source(3099, 'HuggingFaceTB/SmolLM2-360M-Instruct') + '; tied head (the card\'s 360M)')

# ---- Falcon3 small sizes: head_dim 256 as the 7B and 10B (n_embd / n_head).
add('tiiuae/Falcon3-1B-Instruct', 'Falcon3 1B Instruct', 'Falcon3', 'TII Falcon License 2.0',
    '2024-Q4', None,
    litgpt(547, 'llama', 'LlamaForCausalLM', 18, 2048, 8, 4, 8192, 131072, 8192, False, 1000042,
           head_dim=256),
    lit_source(547, 'tiiuae/Falcon3-1B-Instruct') + '; max_position_embeddings: the card\'s '
    '8K context (litgpt keeps 4096; the card: 18 blocks, 8 / 4 heads, head 256, 8K context, '
    '131K vocab); untied head: the 1.67B parameters the Hub counts in its safetensors')
add('tiiuae/Falcon3-3B-Instruct', 'Falcon3 3B Instruct', 'Falcon3', 'TII Falcon License 2.0',
    '2024-Q4', None,
    litgpt(567, 'llama', 'LlamaForCausalLM', 22, 3072, 12, 4, 9216, 131072, 32768, False, 1000042,
           head_dim=256),
    lit_source(567, 'tiiuae/Falcon3-3B-Instruct') + '; untied head: the 3.23B parameters '
    'the Hub counts in its safetensors')

# ---- OLMo 2 1B (olmo2: q/k norms over the full width).
add('allenai/OLMo-2-0425-1B-Instruct', 'OLMo 2 1B Instruct', 'OLMo 2', 'Apache-2.0', '2025-Q2',
    None,
    {'architectures': ['Olmo2ForCausalLM'], 'model_type': 'olmo2', 'hidden_size': 2048,
     'num_hidden_layers': 16, 'num_attention_heads': 16, 'num_key_value_heads': 16,
     'intermediate_size': 8192, 'vocab_size': 100352, 'max_position_embeddings': 4096,
     'rope_theta': 500000, 'tie_word_embeddings': False},
    'the OLMo 2 1B card\'s architecture table (16 layers, hidden 2048, 16 heads, context 4096; '
    'the OLMo 2 tokenizer\'s 100,352-row embedding of the 7B and 13B configs), checked against '
    'the card\'s 1.48B parameters (derived)')

# ---- Granite 3.2 8B: the config the 3.3 fixture's shape was read from.
add('ibm-granite/granite-3.2-8b-instruct', 'Granite 3.2 8B Instruct', 'Granite 3.2',
    'Apache-2.0', '2025-Q1', None,
    like('ibm-granite/granite-3.3-8b-instruct', {'vocab_size': 49155}),
    'https://huggingface.co/huihui-ai/granite-3.2-8b-instruct-abliterated/blob/main/config.json '
    '(an abliteration of granite-3.2-8b-instruct; abliteration keeps the shape; vocab 49155, '
    'the 3.1/3.2 tokenizer) (derived)')

# ---- EXAONE 3.5 / Deep: the 2.4B and 32B sizes (card tables), and Deep's
# 7.8B and 2.4B, which the cards give the 3.5 shapes.
EXAONE_24 = {'architectures': ['ExaoneForCausalLM'], 'model_type': 'exaone', 'hidden_size': 2560,
             'num_layers': 30, 'num_attention_heads': 32, 'num_key_value_heads': 8,
             'head_dim': 80, 'intermediate_size': 7168, 'vocab_size': 102400,
             'max_position_embeddings': 32768, 'rope_theta': 1000000.0,
             'tie_word_embeddings': True}
add('LGAI-EXAONE/EXAONE-3.5-2.4B-Instruct', 'EXAONE 3.5 2.4B Instruct', 'EXAONE 3.5',
    'EXAONE AI Model License 1.1 - NC', '2024-Q4', None, copy.deepcopy(EXAONE_24),
    'the card\'s table (30 layers, GQA 32 heads / 8 KV, vocab 102,400, 32,768 tokens, tied '
    'embeddings); head_dim 80 = hidden 2560 / 32 heads; intermediate 7168, the width that gives '
    'the card\'s 2.14B without embeddings to the parameter count printed (derived)')
add('LGAI-EXAONE/EXAONE-3.5-32B-Instruct', 'EXAONE 3.5 32B Instruct', 'EXAONE 3.5',
    'EXAONE AI Model License 1.1 - NC', '2024-Q4', None,
    like('LGAI-EXAONE/EXAONE-Deep-32B'),
    'the EXAONE-Deep-32B config (Deep-32B is a fine-tune of this model; the card\'s table: 64 '
    'layers, GQA 40 heads / 8 KV, vocab 102,400, 32,768 tokens); checked against the card\'s '
    '30.95B without embeddings (derived)')
add('LGAI-EXAONE/EXAONE-Deep-7.8B', 'EXAONE Deep 7.8B', 'EXAONE Deep',
    'EXAONE AI Model License 1.1 - NC', '2025-Q1', None,
    like('LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct', drop=('quantization', 'quantization_config')),
    'the EXAONE-3.5-7.8B shape: the Deep card gives the same table (32 layers, 32 / 8 heads, '
    'vocab 102,400, 32,768 tokens) (derived)')
add('LGAI-EXAONE/EXAONE-Deep-2.4B', 'EXAONE Deep 2.4B', 'EXAONE Deep',
    'EXAONE AI Model License 1.1 - NC', '2025-Q1', None, copy.deepcopy(EXAONE_24),
    'the EXAONE-3.5-2.4B shape: the Deep card gives the same table (30 layers, 32 / 8 heads, '
    'vocab 102,400, 32,768 tokens, tied embeddings) (derived)')

# ---- Aya Expanse (cohere, tied embeddings as every Command R).
add('CohereForAI/aya-expanse-8b', 'Aya Expanse 8B', 'Aya Expanse', 'CC-BY-NC-4.0', '2024-Q4',
    None,
    {'architectures': ['CohereForCausalLM'], 'model_type': 'cohere', 'hidden_size': 4096,
     'num_hidden_layers': 32, 'num_attention_heads': 32, 'num_key_value_heads': 8,
     'intermediate_size': 14336, 'vocab_size': 256000, 'max_position_embeddings': 8192,
     'rope_theta': 10000, 'use_qk_norm': False},
    'the Aya 23 8B shape it continues (cohere: hidden 4096, 32 layers, 32 / 8 heads, '
    'intermediate 14336, 256K vocab, 8K context), checked against the card\'s 8.03B (derived)')
add('CohereForAI/aya-expanse-32b', 'Aya Expanse 32B', 'Aya Expanse', 'CC-BY-NC-4.0', '2024-Q4',
    None, like('CohereForAI/c4ai-command-r-08-2024'),
    'the c4ai-command-r-08-2024 config: the card calls it a Command R family model of 32B '
    'with a 128K context (derived)')

# ---- Seed-OSS 36B: the card's table (64 layers, 80 / 8 / 8 heads, head 128,
# hidden 5120, 155K vocab, 512K context) and the 27,648 MLP width.
add('ByteDance-Seed/Seed-OSS-36B-Instruct', 'Seed-OSS 36B Instruct', 'Seed-OSS', 'Apache-2.0',
    '2025-Q3', None,
    {'architectures': ['SeedOssForCausalLM'], 'model_type': 'seed_oss', 'hidden_size': 5120,
     'num_hidden_layers': 64, 'num_attention_heads': 80, 'num_key_value_heads': 8,
     'head_dim': 128, 'intermediate_size': 27648, 'vocab_size': 155136,
     'max_position_embeddings': 524288, 'rope_theta': 10000000.0, 'attention_bias': True,
     'attention_out_bias': False, 'tie_word_embeddings': False},
    'the card\'s Model Summary (hf-mirror copy of https://huggingface.co/ByteDance-Seed/'
    'Seed-OSS-36B-Base-woSyn: 64 layers, QKV heads 80 / 8 / 8, head size 128, hidden 5120, '
    'vocab 155K, context 512K) and the MLP width 27,648 datalearner.com reads from the config; '
    'QKV biases as transformers\' SeedOssConfig (derived)')


# Where the new models can be fetched: Ollama tags and GGUF repositories
# seen to exist (each with the page it was seen on).  "gguf" lists
# repositories of llama.cpp files; the other members are as
# tools/import-distributions.py writes them.  Tags not seen are left out.
GEMMA3_SOURCE = 'https://ollama.com/library/gemma3/tags'
DISTRIBUTIONS = {
    'google/gemma-3-270m-it': {
        # The library's 270m tags are the instruction-tuned checkpoint
        # ("270m-it-…"); tools/import-distributions.py listed them under
        # google/gemma-3-270m, whose base checkpoint has no tag.
        'ollama': {'bf16': 'gemma3:270m-it-bf16', 'fp16': 'gemma3:270m-it-fp16',
                   'q8_0': 'gemma3:270m-it-q8_0'},
        'ollama_source': GEMMA3_SOURCE,
        'ollama_note': 'default of the bare tag gemma3:270m is q8_0 (not q4_K_M).',
    },
    'HuggingFaceTB/SmolLM2-135M-Instruct': {
        'ollama_note': 'the library lists the size tag smollm2:135m '
                       '(https://ollama.com/library/smollm2:1.7b-instruct-q4_0/blobs/dfebd0343bdd: '
                       '"135m 360m 1.7b"); its quantization tags were not read.',
    },
    'HuggingFaceTB/SmolLM2-360M-Instruct': {
        'ollama_note': 'the library lists the size tag smollm2:360m '
                       '(https://ollama.com/library/smollm2:1.7b-instruct-q4_0/blobs/dfebd0343bdd: '
                       '"135m 360m 1.7b"); its quantization tags were not read.',
    },
    'moonshotai/Kimi-K2-Instruct-0905': {
        'gguf': [{'repo': 'unsloth/Kimi-K2-Instruct-0905-GGUF',
                  'source': 'https://huggingface.co/unsloth/Kimi-K2-Instruct-0905-GGUF '
                            '(README: base_model moonshotai/Kimi-K2-Instruct-0905)'}],
    },
    'deepseek-ai/DeepSeek-R1-0528-Qwen3-8B': {
        'gguf': [{'repo': 'lmstudio-community/DeepSeek-R1-0528-Qwen3-8B-GGUF',
                  'source': R1_QWEN3_CARD + ' (a copy of its card: quantized by bartowski '
                            'with llama.cpp b5524)'}],
    },
    'mistralai/Devstral-Small-2505': {
        'gguf': [{'repo': 'Mungert/Devstral-Small-2505-GGUF',
                  'source': 'https://huggingface.co/Mungert/Devstral-Small-2505-GGUF '
                            '(README: base_model mistralai/Devstral-Small-2505)'}],
    },
    'LGAI-EXAONE/EXAONE-3.5-32B-Instruct': {
        'gguf': [{'repo': 'bartowski/EXAONE-3.5-32B-Instruct-GGUF',
                  'source': 'https://huggingface.co/bartowski/EXAONE-3.5-32B-Instruct-GGUF '
                            '(llama.cpp b4273 imatrix quantizations, f16 to Q2)'}],
    },
    'ByteDance-Seed/Seed-OSS-36B-Instruct': {
        'gguf': [{'repo': 'unsloth/Seed-OSS-36B-Instruct-GGUF',
                  'source': 'https://huggingface.co/unsloth/Seed-OSS-36B-Instruct-GGUF '
                            '(README: base_model ByteDance-Seed/Seed-OSS-36B-Instruct)'}],
    },
}
DISTRIBUTIONS_PATH = os.path.join(root, 'resources', 'catalog', 'distributions.json')


def add_distributions():
    """Inserts the entries of DISTRIBUTIONS after AFTER's line, one line
    each, as tools/import-distributions.py writes them."""
    lines = open(DISTRIBUTIONS_PATH).read().split('\n')
    have = {json.loads(l.strip().rstrip(','))['id'] for l in lines
            if l.strip().startswith('{"id"')}
    at = next(i for i, l in enumerate(lines) if l.strip().startswith('{"id": "%s"' % AFTER))
    order = [m[0] for m in MODELS]
    rows = ['    ' + json.dumps(dict(id=mid, **DISTRIBUTIONS[mid]), ensure_ascii=False) + ','
            for mid in sorted(DISTRIBUTIONS, key=order.index) if mid not in have]
    lines[at + 1:at + 1] = rows
    with open(DISTRIBUTIONS_PATH, 'w') as f:
        f.write('\n'.join(lines))
    return len(rows)


def write_fixture(mid, config, source):
    out = {'_name_or_path': mid, '_source': source}
    out.update(config)
    path = os.path.join(fixtures, mid.replace('/', '--') + '.json')
    with open(path, 'w') as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write('\n')
    return path


def inspect(path):
    run = subprocess.run([cli, 'inspect', path, '--json'], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit('%s: %s' % (path, run.stderr.strip()))
    return json.loads(run.stdout)


ORDER = ['id', 'name', 'family', 'architecture', 'license', 'release', 'ollama_tag', 'layers',
         'hidden', 'heads', 'kv_heads', 'intermediate', 'vocab', 'max_context',
         'tied_embeddings', 'attention', 'params', 'active_params', 'head_dim', 'head_dim_v',
         'kv_lora_rank', 'qk_rope_head_dim', 'qk_nope_head_dim', 'q_lora_rank',
         'attention_bias', 'qk_norm', 'sliding_window', 'swa_period', 'experts', 'experts_active',
         'expert_intermediate', 'shared_experts', 'dense_layers', 'mlp', 'source']


def entry(mid, name, family, license, release, tag, imported):
    e = dict(imported)
    e.update({'id': mid, 'name': name, 'family': family, 'license': license,
              'release': release, 'ollama_tag': tag,
              'source': 'https://huggingface.co/%s/blob/main/config.json' % mid})
    e['params'] = int(e['params'])
    e['active_params'] = int(e['active_params'])
    if e['attention'] != 'mla' and e.get('head_dim_v') == e['head_dim']:
        del e['head_dim_v']
    for flag in ('attention_bias', 'qk_norm'):
        if not e.get(flag):
            e.pop(flag, None)
    unknown = set(e) - set(ORDER)
    assert not unknown, (mid, unknown)
    return {k: e[k] for k in ORDER if k in e}


models = json.load(open(catalog_path))['models']
ids = {m['id'] for m in models}
new = []
for mid, name, family, license, release, tag, config, source in MODELS:
    if mid in ids:
        continue
    new.append(entry(mid, name, family, license, release, tag,
                     inspect(write_fixture(mid, config, source))))
at = [m['id'] for m in models].index(AFTER) + 1
models[at:at] = new
with open(catalog_path, 'w') as f:
    f.write('{\n  "models": [\n')
    f.write(',\n'.join('    ' + json.dumps(r, ensure_ascii=False) for r in models))
    f.write('\n  ]\n}\n')
print(len(new), 'added,', len(models), 'models')
print(add_distributions(), 'distribution entries added')
