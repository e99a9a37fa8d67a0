/* hr-cli-list.c — headroom-cli models, devices, precisions: the catalog's lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-format.h"
#include "hr-units.h"

static int
run_list (HrCliOptions *o,
          const char   *what)
{
  GListModel *list;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint n;

  if (g_str_equal (what, "models"))
    list = hr_catalog_get_models (o->catalog);
  else if (g_str_equal (what, "devices"))
    list = hr_catalog_get_hardware (o->catalog);
  else if (g_str_equal (what, "cpus"))
    list = hr_catalog_get_cpus (o->catalog);
  else
    list = hr_catalog_get_precisions (o->catalog);
  n = g_list_model_get_n_items (list);

  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (list, i);

      if (HR_IS_MODEL_SPEC (item))
        {
          HrModelSpec *m = HR_MODEL_SPEC (item);
          const HrModelArch *a = hr_model_spec_get_arch (m);

          if (!o->json)
            {
              g_autofree char *params = hr_format_params (a->params_total);
              /* the user's catalog files may hold anything (issue 28,
               * item 13): one displayable line per entry */
              g_autofree char *id = hr_cli_escape (hr_model_spec_get_id (m));
              g_autofree char *family = hr_cli_escape (hr_model_spec_get_family (m));

              g_print ("%-44s %-18s %7s %8" G_GUINT64_FORMAT "\n", id, family, params,
                       a->max_context);
              continue;
            }
          json_builder_begin_object (b);
          hr_cli_add_string (b, "id", hr_model_spec_get_id (m));
          hr_cli_add_string (b, "name", hr_model_spec_get_name (m));
          hr_cli_add_string (b, "family", hr_model_spec_get_family (m));
          hr_cli_add_double (b, "params", a->params_total);
          hr_cli_add_double (b, "active_params", a->params_active);
          hr_cli_add_uint (b, "max_context", a->max_context);
          hr_cli_add_string (b, "attention", hr_attention_kind_to_string (a->attention));
          hr_cli_add_uint (b, "layers", a->n_layers);
          hr_cli_add_string (b, "license", hr_model_spec_get_license (m));
          hr_cli_add_string (b, "ollama_tag", hr_model_spec_get_ollama_tag (m));
          hr_cli_add_string (b, "origin", hr_model_spec_get_origin (m) == HR_ORIGIN_USER
                                          ? "user" : "builtin");
          json_builder_end_object (b);
        }
      else if (HR_IS_HARDWARE (item))
        {
          HrHardware *h = HR_HARDWARE (item);

          if (!o->json)
            {
              g_autofree char *id = hr_cli_escape (hr_hardware_get_id (h));
              g_autofree char *name = hr_cli_escape (hr_hardware_get_name (h));

              g_print ("%-24s %-28s %6.0f GiB %7.0f GB/s\n", id, name,
                       hr_hardware_get_memory_bytes (h) / HR_GIB,
                       hr_hardware_get_bandwidth_gbps (h));
              continue;
            }
          json_builder_begin_object (b);
          hr_cli_add_string (b, "id", hr_hardware_get_id (h));
          hr_cli_add_string (b, "name", hr_hardware_get_name (h));
          hr_cli_add_string (b, "vendor", hr_hardware_get_vendor (h));
          hr_cli_add_string (b, "kind", hr_hardware_is_unified (h) ? "unified" : "discrete");
          hr_cli_add_uint (b, "memory_bytes", hr_hardware_get_memory_bytes (h));
          hr_cli_add_uint (b, "usable_bytes", hr_device_usable_bytes (hr_hardware_get_device (h)));
          hr_cli_add_double (b, "bandwidth_gbps", hr_hardware_get_bandwidth_gbps (h));
          json_builder_end_object (b);
        }
      else if (HR_IS_CPU (item))
        {
          HrCpu *c = HR_CPU (item);

          if (!o->json)
            {
              g_print ("%-30s %-34s %4u cores %6.2f TFLOPS %5.0f GB/s\n", hr_cpu_get_id (c),
                       hr_cpu_get_name (c), hr_cpu_get_cores (c),
                       hr_cpu_get_matrix_flops (c) / 1e12, hr_cpu_get_bandwidth_gbps (c));
              continue;
            }
          json_builder_begin_object (b);
          hr_cli_add_string (b, "id", hr_cpu_get_id (c));
          hr_cli_add_string (b, "name", hr_cpu_get_name (c));
          hr_cli_add_string (b, "kind", hr_cpu_get_kind (c));
          hr_cli_add_string (b, "simd", hr_cpu_get_simd (c));
          hr_cli_add_uint (b, "cores", hr_cpu_get_cores (c));
          hr_cli_add_double (b, "flops", hr_cpu_get_matrix_flops (c));
          hr_cli_add_double (b, "bandwidth_gbps", hr_cpu_get_bandwidth_gbps (c));
          hr_cli_add_string (b, "source", hr_cpu_get_source (c));
          json_builder_end_object (b);
        }
      else
        {
          HrPrecision *p = HR_PRECISION (item);

          if (!o->json)
            {
              g_print ("%-10s %-12s %6.2f bpw\n", hr_precision_get_id (p),
                       hr_precision_get_label (p), hr_precision_get_bpw (p));
              continue;
            }
          json_builder_begin_object (b);
          hr_cli_add_string (b, "id", hr_precision_get_id (p));
          hr_cli_add_string (b, "name", hr_precision_get_label (p));
          hr_cli_add_string (b, "label", hr_precision_get_label (p));
          hr_cli_add_double (b, "bpw", hr_precision_get_bpw (p));
          hr_cli_add_string (b, "kind", hr_precision_get_kind (p));
          json_builder_end_object (b);
        }
    }
  json_builder_end_array (b);

  if (o->json)
    {
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
    }
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  if (!hr_cli_no_arguments (o))
    return hr_cli_exit_status ();
  return run_list (o, name);
}

const HrCliCommand hr_cli_models_command = {
  .name = "models",
  .synopsis = "models | devices | precisions | cpus [--json]",
  .summary = "Lists the models of the catalog (built-in and the user's).",
  .add_options = add_options,
  .run = run,
};

const HrCliCommand hr_cli_devices_command = {
  .name = "devices",
  .summary = "Lists the devices of the catalog (built-in and the user's).",
  .add_options = add_options,
  .run = run,
};

const HrCliCommand hr_cli_precisions_command = {
  .name = "precisions",
  .summary = "Lists the weight precisions.",
  .add_options = add_options,
  .run = run,
};

const HrCliCommand hr_cli_cpus_command = {
  .name = "cpus",
  .summary = "Lists the CPUs of the catalog: cores, matrix rate and memory bandwidth.",
  .add_options = add_options,
  .run = run,
};
