/* hr-llamacpp-placement.c — which layers llama.cpp puts on which device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-llamacpp-placement"

#include "config.h"

#include <math.h>

#include "hr-llamacpp-placement.h"

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

static guint64
layer_kv (const HrLlamaCppPlacementInput *in,
          guint32                         il)
{
  return hr_model_arch_layer_is_local (in->arch, il) ? in->kv_local_layer_bytes
                                                      : in->kv_global_layer_bytes;
}

/* Bytes of layer @il a decode step reads: every dense tensor, and of the
 * routed experts only the active ones. */
static double
layer_read (const HrLlamaCppPlacementInput *in,
            guint32                         il,
            gboolean                        experts_here)
{
  const HrLayerWeights *w = in->weights;
  double experts = (double) expert_bytes (w, il);
  double dense = (double) layer_bytes (w, il) - experts;

  return dense + (experts_here ? experts * in->expert_active_share : 0);
}

static double
layer_experts_read (const HrLlamaCppPlacementInput *in,
                    guint32                         il)
{
  return (double) expert_bytes (in->weights, il) * in->expert_active_share;
}

/* Places index range [first, L] (L = the output layer) with @counts[d]
 * indices on device d, in order. */
static void
place_counts (const HrLlamaCppPlacementInput *in,
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

  memset (out, 0, sizeof *out);
  out->n_devices = in->n_devices;
  for (d = 0; d < in->n_devices; d++)
    n += counts[d];
  n = MIN (n, L + 1);
  first = L + 1 - n;
  out->gpu_layers = n;

  /* The input layer (token embeddings) never leaves the CPU. */
  out->host_weights_bytes = w->token_embd_bytes;

  /* Layers the CPU keeps, and the routed experts forced onto it. */
  for (il = 0; il < first; il++)
    {
      if (il < L)
        {
          out->host_weights_bytes += layer_bytes (w, il);
          out->host_layers++;
          out->host_layer_bytes += layer_bytes (w, il);
          out->host_kv_bytes += layer_kv (in, il);
          copied = MAX (copied, w->largest_dense_bytes);
          host_read += layer_read (in, il, TRUE);
        }
      else
        {
          out->host_weights_bytes += w->output_bytes;
          host_read += (double) w->output_bytes;
          copied = MAX (copied, w->output_bytes);
        }
      cpu_work = TRUE;
    }

  il = first;
  for (d = 0; d < in->n_devices; d++)
    {
      HrDeviceLoad *load = &out->devices[d];

      for (guint32 k = 0; k < counts[d] && il <= L; k++, il++)
        {
          guint64 bytes;

          load->layers++;
          if (il == L)
            {
              bytes = w->output_bytes;
              load->output_layer = TRUE;
              gpu_read[d] += (double) bytes;
            }
          else
            {
              gboolean experts_on_cpu = il < in->n_cpu_moe && expert_bytes (w, il) > 0;

              bytes = layer_bytes (w, il);
              if (experts_on_cpu)
                {
                  bytes -= expert_bytes (w, il);
                  out->host_weights_bytes += expert_bytes (w, il);
                  out->host_expert_bytes += expert_bytes (w, il);
                  host_read += layer_experts_read (in, il);
                  cpu_work = TRUE;
                }
              load->kv_bytes += layer_kv (in, il);
              gpu_read[d] += layer_read (in, il, !experts_on_cpu);
            }
          if (in->split_mode == HR_SPLIT_ROW)
            row_weights += bytes;
          else
            load->weights_bytes += bytes;
        }
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
      load->usable_bytes = in->usable_bytes;
      load->total_bytes = load->weights_bytes + load->kv_bytes + load->compute_bytes;
      if (load->total_bytes > in->usable_bytes)
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

void
hr_llamacpp_place (const HrLlamaCppPlacementInput *in,
                   guint32                         gpu_layers,
                   HrLlamaCppPlacement            *out)
{
  guint32 counts[HR_MAX_DEVICES] = { 0 };

  g_return_if_fail (in != NULL && out != NULL);
  g_return_if_fail (in->n_devices >= 1 && in->n_devices <= HR_MAX_DEVICES);

  proportional_counts (in, MIN (gpu_layers, in->weights->n_layers + 1), counts);
  place_counts (in, counts, out);
}

static gboolean
within (const HrLlamaCppPlacement *p,
        guint64                    usable,
        guint64                    margin,
        guint32                    d)
{
  return p->devices[d].total_bytes + margin <= usable;
}

static gboolean
all_within (const HrLlamaCppPlacement *p,
            guint64                    usable,
            guint64                    margin)
{
  for (guint32 d = 0; d < p->n_devices; d++)
    if (!within (p, usable, margin, d))
      return FALSE;
  return TRUE;
}

guint32
hr_llamacpp_place_most (const HrLlamaCppPlacementInput *in,
                        guint64                         margin,
                        HrLlamaCppPlacement            *out)
{
  guint32 low = 0, high;

  g_return_val_if_fail (in != NULL && out != NULL, 0);

  /* More layers never take memory off a GPU, so bisect on N. */
  high = in->weights->n_layers + 1;
  while (low < high)
    {
      guint32 mid = low + (high - low + 1) / 2;

      hr_llamacpp_place (in, mid, out);
      if (all_within (out, in->usable_bytes, margin))
        low = mid;
      else
        high = mid - 1;
    }
  hr_llamacpp_place (in, low, out);
  return low;
}

void
hr_llamacpp_place_fit (const HrLlamaCppPlacementInput *in,
                       guint64                         margin,
                       HrLlamaCppPlacement            *out)
{
  guint32 counts[HR_MAX_DEVICES] = { 0 };
  guint32 left = in->weights->n_layers + 1;

  g_return_if_fail (in != NULL && out != NULL);

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
          place_counts (in, counts, out);
          if (within (out, in->usable_bytes, margin, d))
            low = mid;
          else
            high = mid - 1;
        }
      counts[d] = low;
      left -= low;
    }
  place_counts (in, counts, out);
}
