/* hr-enums.c — GTypes for the estimator's enumerations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-enums.h"

GType
hr_engine_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { HR_ENGINE_GENERIC, "HR_ENGINE_GENERIC", "generic" },
        { HR_ENGINE_LLAMACPP, "HR_ENGINE_LLAMACPP", "llamacpp" },
        { HR_ENGINE_OLLAMA, "HR_ENGINE_OLLAMA", "ollama" },
        { HR_ENGINE_VLLM, "HR_ENGINE_VLLM", "vllm" },
        { HR_ENGINE_SGLANG, "HR_ENGINE_SGLANG", "sglang" },
        { HR_ENGINE_AUTO, "HR_ENGINE_AUTO", "auto" },
        { 0, NULL, NULL },
      };
      g_once_init_leave (&type_id, g_enum_register_static ("HrEngine", values));
    }
  return type_id;
}

GType
hr_verdict_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { HR_VERDICT_COMFORTABLE, "HR_VERDICT_COMFORTABLE", "comfortable" },
        { HR_VERDICT_TIGHT, "HR_VERDICT_TIGHT", "tight" },
        { HR_VERDICT_NO_FIT, "HR_VERDICT_NO_FIT", "no-fit" },
        { 0, NULL, NULL },
      };
      g_once_init_leave (&type_id, g_enum_register_static ("HrVerdict", values));
    }
  return type_id;
}
