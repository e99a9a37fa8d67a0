/* hr-energy.c — joules per token and the price of a million tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "hr-energy.h"
#include "hr-estimate-constants.h"

/**
 * hr_energy_parallel_gpus:
 *
 * The GPUs that work on a token at the same time: vLLM and SGLang run
 * tensor parallel (every GPU on each token); llama.cpp and Ollama split
 * by layers and run the GPUs in turn, which the streaming time already
 * adds up.
 */
guint32
hr_energy_parallel_gpus (HrEngine engine,
                         guint32  gpus)
{
  if (engine == HR_ENGINE_VLLM || engine == HR_ENGINE_SGLANG)
    return MAX (gpus, 1);
  return 1;
}

/**
 * hr_energy_utilisation:
 *
 * The share of one decode step the GPUs spend streaming weights and
 * cache (the rest is the fixed per-token cost and the CPU's layers), in
 * [0, 1]; 0 when the speed model did not time the step.
 */
double
hr_energy_utilisation (const HrEstimate *estimate)
{
  double u;

  if (!(estimate->decode_tokens_per_s > 0) || !(estimate->decode_gpu_seconds > 0))
    return 0;
  u = estimate->decode_gpu_seconds * estimate->decode_tokens_per_s;
  return CLAMP (u, 0.0, 1.0);
}

/**
 * hr_energy_joules_per_token:
 * @tdp_watts: the device's board power (0: unknown)
 * @parallel_gpus: GPUs that work at the same time on a token (tensor
 *   parallelism); a llama.cpp layer split runs its GPUs one after the
 *   other, which the streaming time already adds up: 1
 *
 * Board power × utilisation ÷ tokens per second (hr-estimate-constants.h,
 * "Energy").
 *
 * Returns: joules per decoded token, or 0 when unknown (no board power,
 *   no GPU work, no speed)
 */
double
hr_energy_joules_per_token (const HrEstimate *estimate,
                            double            tdp_watts,
                            guint32           parallel_gpus)
{
  double u = hr_energy_utilisation (estimate);

  if (!(tdp_watts > 0) || !(u > 0))
    return 0;
  return tdp_watts * HR_ENERGY_BUSY_POWER_FRACTION * MAX (parallel_gpus, 1) * u
         / estimate->decode_tokens_per_s;
}

/**
 * hr_energy_cost_per_million:
 *
 * With a price per hour: the hours a million tokens take at
 * @tokens_per_s × the price.  Else with a price per kWh: the energy of a
 * million tokens × the price.
 *
 * Returns: the price of a million tokens, or -1 when there is no price or
 *   the figure it needs is unknown
 */
double
hr_energy_cost_per_million (double         joules_per_token,
                            double         tokens_per_s,
                            const HrPrice *price)
{
  if (price == NULL)
    return -1;
  if (price->per_hour > 0)
    return tokens_per_s > 0
           ? HR_ENERGY_TOKENS_PER_PRICE / tokens_per_s / 3600.0 * price->per_hour : -1;
  if (price->per_kwh > 0)
    return joules_per_token > 0
           ? joules_per_token * HR_ENERGY_TOKENS_PER_PRICE / HR_ENERGY_JOULES_PER_KWH
             * price->per_kwh
           : -1;
  return -1;
}
