/* hr-llamacpp-placement.c — which layers llama.cpp puts on which device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-llamacpp-placement"

#include "config.h"

#include <math.h>

#include "hr-llamacpp-placement.h"

guint64
hr_llamacpp_usable (const HrLlamaCppPlacementInput *in,
                    guint32                         d)
{
  return d < HR_MAX_DEVICES && in->device_usable[d] > 0 ? in->device_usable[d]
                                                        : in->usable_bytes;
}

static guint64
layer_bytes (const HrLayerWeights *w,
             guint32               il)
{
  return w->layer_bytes != NULL ? w->layer_bytes[il] : w->uniform_layer_bytes;
}

static guint64
expert_bytes (const HrLayerWeights *w,
              guint32               il)
{
  if (w->expert_bytes != NULL)
    return w->expert_bytes[il];
  return w->layer_bytes != NULL ? 0 : w->uniform_expert_bytes;
}

/* Running totals over the repeating layers, so that a placement sums any
 * range of layers in constant time: the bisections of place_most() and
 * place_fit() try ~2 log2(L) placements per GPU, and a file may declare
 * up to HR_LAYERS_MAX layers.  Entry i holds layers [0, i). */
typedef struct
{
  guint64 *bytes;                     /* every tensor of the layer */
  guint64 *experts;                   /*   of which routed experts */
  guint32 *local;                     /* sliding-window layers */
} LayerSums;

static void
layer_sums_init (LayerSums                      *sums,
                 const HrLlamaCppPlacementInput *in)
{
  const HrLayerWeights *w = in->weights;
  guint32 L = w->n_layers;

  sums->bytes = g_new (guint64, (gsize) L + 1);
  sums->experts = g_new (guint64, (gsize) L + 1);
  sums->local = g_new (guint32, (gsize) L + 1);
  sums->bytes[0] = sums->experts[0] = 0;
  sums->local[0] = 0;
  for (guint32 il = 0; il < L; il++)
    {
      sums->bytes[il + 1] = sums->bytes[il] + layer_bytes (w, il);
      sums->experts[il + 1] = sums->experts[il] + expert_bytes (w, il);
      sums->local[il + 1] = sums->local[il] + (hr_model_arch_layer_is_local (in->arch, il) ? 1 : 0);
    }
}

static void
layer_sums_clear (LayerSums *sums)
{
  g_clear_pointer (&sums->bytes, g_free);
  g_clear_pointer (&sums->experts, g_free);
  g_clear_pointer (&sums->local, g_free);
}

/* Totals of the repeating layers [first, last) (last ≤ L). */
typedef struct
{
  guint32 layers;
  guint64 bytes;
  guint64 experts;
  guint64 kv;
  guint64 state;
} LayerRange;

static LayerRange
layer_range (const LayerSums                *sums,
             const HrLlamaCppPlacementInput *in,
             guint32                         first,
             guint32                         last)
{
  LayerRange r = { 0 };
  guint32 local;

  if (last <= first)
    return r;
  local = sums->local[last] - sums->local[first];
  r.layers = last - first;
  r.bytes = sums->bytes[last] - sums->bytes[first];
  r.experts = sums->experts[last] - sums->experts[first];
  r.kv = (guint64) local * in->kv_local_layer_bytes +
         (guint64) (r.layers - local) * in->kv_global_layer_bytes;
  /* A hybrid's KV and state layers are counted in proportion: the
   * attention layers are spread through the stack (one in four for
   * Qwen3-Next, one in eight for Jamba), so a range holds its share. */
  if (in->state_layer_bytes > 0)
    {
      r.kv = (guint64) llround ((double) r.kv * in->kv_layer_share);
      r.state = (guint64) llround (r.layers * in->state_layer_bytes);
    }
  return r;
}

/* Bytes a decode step reads of @r: every dense tensor, and of the routed
 * experts only the active ones (when they are read on this device). */
static double
range_read (const HrLlamaCppPlacementInput *in,
            const LayerRange               *r,
            gboolean                        experts_here)
{
  double dense = (double) (r->bytes - r->experts);

  return dense + (experts_here ? (double) r->experts * in->expert_active_share : 0);
}

/* Places index range [first, L] (L = the output layer) with @counts[d]
 * indices on device d, in order. */
static void
place_counts (const HrLlamaCppPlacementInput *in,
              const LayerSums                *sums,
              const guint32                  *counts,
              HrLlamaCppPlacement            *out)
{
  const HrLayerWeights *w = in->weights;
  guint32 L = w->n_layers;
  guint32 n = 0, first, il, d;
  double gpu_read[HR_MAX_DEVICES] = { 0 };
  double host_read = 0;
  guint64 row_weights = 0;
  guint64 copied = 0;
  gboolean cpu_work = FALSE;
  LayerRange host;

  memset (out, 0, sizeof *out);
  out->n_devices = in->n_devices;
  for (d = 0; d < in->n_devices; d++)
    n += counts[d];
  n = MIN (n, L + 1);
  first = L + 1 - n;
  out->gpu_layers = n;

  /* The input layer (token embeddings) never leaves the CPU. */
  out->host_weights_bytes = w->token_embd_bytes;

  /* Layers the CPU keeps, and the output layer when no index is
   * offloaded. */
  host = layer_range (sums, in, 0, MIN (first, L));
  if (host.layers > 0)
    {
      out->host_weights_bytes += host.bytes;
      out->host_layers = host.layers;
      out->host_layer_bytes = host.bytes;
      out->host_kv_bytes = host.kv + host.state;
      out->host_lora_bytes = (guint64) llround (host.layers * in->lora_layer_bytes);
      out->host_weights_bytes += out->host_lora_bytes;
      host_read += (double) out->host_lora_bytes;
      copied = w->largest_dense_bytes;
      host_read += range_read (in, &host, TRUE);
      cpu_work = TRUE;
    }
  if (first > L)
    {
      out->host_weights_bytes += w->output_bytes;
      host_read += (double) w->output_bytes;
      copied = MAX (copied, w->output_bytes);
      cpu_work = TRUE;
    }

  il = first;
  for (d = 0; d < in->n_devices; d++)
    {
      HrDeviceLoad *load = &out->devices[d];
      guint32 end = (guint32) MIN ((guint64) il + counts[d], (guint64) L + 1);
      guint32 layers_end = MIN (end, L);
      /* routed experts of layers below n_cpu_moe stay in RAM */
      guint32 split = CLAMP (in->n_cpu_moe, il, MAX (il, layers_end));
      LayerRange cpu_experts = layer_range (sums, in, il, split);
      LayerRange gpu_experts = layer_range (sums, in, split, layers_end);
      guint64 bytes;

      if (end <= il)
        continue;
      load->layers = end - il;
      bytes = cpu_experts.bytes - cpu_experts.experts + gpu_experts.bytes;
      load->kv_bytes = cpu_experts.kv + gpu_experts.kv;
      load->state_bytes = cpu_experts.state + gpu_experts.state;
      if (in->kv_on_host)
        {
          out->host_kv_bytes += load->kv_bytes + load->state_bytes;
          load->kv_bytes = load->state_bytes = 0;
        }
      /* an adapter is applied unmerged, A then B, every token: read */
      load->lora_bytes = (guint64) llround ((layers_end - MIN (il, layers_end)) *
                                            in->lora_layer_bytes);
      gpu_read[d] = range_read (in, &cpu_experts, FALSE) + range_read (in, &gpu_experts, TRUE) +
                    (double) load->lora_bytes;
      if (cpu_experts.experts > 0)
        {
          out->host_weights_bytes += cpu_experts.experts;
          out->host_expert_bytes += cpu_experts.experts;
          host_read += (double) cpu_experts.experts * in->expert_active_share;
          cpu_work = TRUE;
        }
      if (end == L + 1)
        {
          bytes += w->output_bytes;
          load->output_layer = TRUE;
          gpu_read[d] += (double) w->output_bytes;
        }
      if (in->split_mode == HR_SPLIT_ROW)
        row_weights += bytes;
      else
        load->weights_bytes += bytes;
      il = end;
    }

  /* Row split: every offloaded matrix is cut by rows over all GPUs in the
   * split's shares; the KV and compute stay with the layer's device. */
  if (in->split_mode == HR_SPLIT_ROW)
    {
      double total_read = 0;

      for (d = 0; d < in->n_devices; d++)
        total_read += gpu_read[d];
      for (d = 0; d < in->n_devices; d++)
        {
          out->devices[d].weights_bytes = (guint64) llround ((double) row_weights * in->split[d]);
          gpu_read[d] = total_read * in->split[d];
        }
    }

  /* Every layer on several GPUs in layer split, no expert on the CPU:
   * llama.cpp pipelines micro-batches and copies the inputs four times. */
  out->pipeline_copies = 1;
  if (n == L + 1 && in->n_devices > 1 && in->split_mode == HR_SPLIT_LAYER &&
      in->n_cpu_moe == 0)
    {
      guint32 used = 0;

      for (d = 0; d < in->n_devices; d++)
        used += counts[d] > 0;
      if (used > 1)
        out->pipeline_copies = HR_LLAMACPP_SCHED_MAX_COPIES;
    }

  out->fits = TRUE;
  for (d = 0; d < in->n_devices; d++)
    {
      HrDeviceLoad *load = &out->devices[d];
      gboolean busy = load->layers > 0 || in->split_mode == HR_SPLIT_ROW;

      /* Every GPU in use has its backend's context; one that holds a
       * layer, or the first when it runs the CPU layers' big products
       * (op offload), has a compute buffer.  That first GPU also keeps the
       * copy of the largest CPU-held matrix it multiplies (the output head
       * of Qwen3-30B-A3B F16 in llama.cpp's fit-params example: 304.8 +
       * 593.5 MiB = 898 logged); routed experts are not copied that way
       * (their GPUs' buffers stay equal in offload-logs case 1). */
      load->compute_bytes = in->reserve_bytes;
      if (busy || (d == 0 && in->op_offload && cpu_work))
        load->compute_bytes += in->compute_bytes +
                               (out->pipeline_copies - 1) * in->mask_bytes;
      if (d == 0 && in->op_offload)
        load->compute_bytes += copied;
      load->usable_bytes = hr_llamacpp_usable (in, d);
      /* the projector on the first GPU (llama.cpp's clip: "CLIP using
       * CUDA0 backend"), the draft on the GPUs its own placement chose */
      load->mmproj_bytes = d == 0 ? in->mmproj_bytes : 0;
      load->draft_bytes = in->draft_bytes[d];
      load->total_bytes = load->weights_bytes + load->kv_bytes + load->state_bytes +
                          load->compute_bytes + load->mmproj_bytes + load->draft_bytes +
                          load->lora_bytes;
      if (load->total_bytes > load->usable_bytes)
        out->fits = FALSE;
      out->gpu_weights_read_bytes[d] = (guint64) llround (gpu_read[d]);
    }

  out->host_weights_read_bytes = (guint64) llround (host_read);
  out->host_bytes = out->host_weights_bytes + out->host_kv_bytes + in->host_buffers_bytes +
                   (out->pipeline_copies - 1) * in->host_inputs_bytes;
}

/* llama.cpp's proportional split of N offloaded indices: device d gets
 * ceil(s_d · N) − ceil(s_{d−1} · N), s the cumulative shares. */
static void
proportional_counts (const HrLlamaCppPlacementInput *in,
                     guint32                         n,
                     guint32                        *counts)
{
  double cumulative = 0;
  guint32 previous = 0;

  for (guint32 d = 0; d < in->n_devices; d++)
    {
      guint32 upto;

      cumulative += in->split[d];
      upto = d + 1 == in->n_devices ? n : (guint32) MIN ((double) n, ceil (cumulative * n - 1e-9));
      counts[d] = upto > previous ? upto - previous : 0;
      previous = MAX (previous, upto);
    }
}

/* N offloaded indices, split in the devices' shares. */
static void
place_n (const HrLlamaCppPlacementInput *in,
         const LayerSums                *sums,
         guint32                         gpu_layers,
         HrLlamaCppPlacement            *out)
{
  guint32 counts[HR_MAX_DEVICES] = { 0 };

  proportional_counts (in, MIN (gpu_layers, in->weights->n_layers + 1), counts);
  place_counts (in, sums, counts, out);
}

void
hr_llamacpp_place (const HrLlamaCppPlacementInput *in,
                   guint32                         gpu_layers,
                   HrLlamaCppPlacement            *out)
{
  LayerSums sums;

  g_return_if_fail (in != NULL && out != NULL);
  g_return_if_fail (in->n_devices >= 1 && in->n_devices <= HR_MAX_DEVICES);

  layer_sums_init (&sums, in);
  place_n (in, &sums, gpu_layers, out);
  layer_sums_clear (&sums);
}

static gboolean
within (const HrLlamaCppPlacement *p,
        guint64                    margin,
        guint32                    d)
{
  return p->devices[d].total_bytes + margin <= p->devices[d].usable_bytes;
}

static gboolean
all_within (const HrLlamaCppPlacement *p,
            guint64                    margin)
{
  for (guint32 d = 0; d < p->n_devices; d++)
    if (!within (p, margin, d))
      return FALSE;
  return TRUE;
}

guint32
hr_llamacpp_place_most (const HrLlamaCppPlacementInput *in,
                        guint64                         margin,
                        HrLlamaCppPlacement            *out)
{
  guint32 low = 0, high;
  LayerSums sums;

  g_return_val_if_fail (in != NULL && out != NULL, 0);
  g_return_val_if_fail (in->n_devices >= 1 && in->n_devices <= HR_MAX_DEVICES, 0);

  layer_sums_init (&sums, in);
  /* More layers never take memory off a GPU, so bisect on N. */
  high = in->weights->n_layers + 1;
  while (low < high)
    {
      guint32 mid = low + (high - low + 1) / 2;

      place_n (in, &sums, mid, out);
      if (all_within (out, margin))
        low = mid;
      else
        high = mid - 1;
    }
  place_n (in, &sums, low, out);
  layer_sums_clear (&sums);
  return low;
}

void
hr_llamacpp_place_fit (const HrLlamaCppPlacementInput *in,
                       guint64                         margin,
                       HrLlamaCppPlacement            *out)
{
  guint32 counts[HR_MAX_DEVICES] = { 0 };
  guint32 left;
  LayerSums sums;

  g_return_if_fail (in != NULL && out != NULL);
  g_return_if_fail (in->n_devices >= 1 && in->n_devices <= HR_MAX_DEVICES);

  left = in->weights->n_layers + 1;
  layer_sums_init (&sums, in);

  /* From the last GPU to the first, each takes the most of the layers
   * still unplaced (counted from the output backwards) that leave the
   * margin free; the rest stays on the CPU. */
  for (guint32 d = in->n_devices; d-- > 0 && left > 0;)
    {
      guint32 low = 0, high = left;

      while (low < high)
        {
          guint32 mid = low + (high - low + 1) / 2;

          counts[d] = mid;
          place_counts (in, &sums, counts, out);
          if (within (out, margin, d))
            low = mid;
          else
            high = mid - 1;
        }
      counts[d] = low;
      left -= low;
    }
  place_counts (in, &sums, counts, out);
  layer_sums_clear (&sums);
}
