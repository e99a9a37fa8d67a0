/* nvml-stub.c — a stand-in for libnvidia-ml.so.1, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built several times with STUB_MODE:
 *   STUB_GOOD     answers like the real library on a machine with an
 *                 RTX 3060 12 GB and an RTX 4090 (figures from nvidia-smi)
 *   STUB_FAILING  starts, counts two GPUs, then every call fails with an
 *                 error code of its own (the second GPU is lost)
 *   STUB_NO_DRIVER loads, but nvmlInit_v2 finds no driver
 *   STUB_MISSING  lacks nvmlDeviceGetMemoryInfo (an old or foreign library)
 *   STUB_SLOW     nvmlInit_v2 hangs for 30 s (a driver in a bad state)
 *   STUB_SPARK    one GB10 whose memory NVML does not report (DGX Spark)
 *   STUB_HOSTILE  absurd answers: 2^31 GPUs, names without a terminator,
 *                 free memory above the total
 *   STUB_CRASH    nvmlInit_v2 dereferences a null pointer (SIGSEGV)
 *   STUB_BLOCK    its constructor never returns, so dlopen() never does
 *                 (a driver library stuck at load); it first writes its
 *                 process id to $HEADROOM_NVML_STUB_PIDFILE, if set, so
 *                 that tests can wait for it to be running and to be gone
 *   STUB_HUGE     the good stub's GPUs, each with 2^64 - 1 bytes of memory
 * The declarations are nvml.h's; only what Headroom calls is here.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STUB_GOOD    1
#define STUB_FAILING 2
#define STUB_MISSING 3
#define STUB_SLOW    4
#define STUB_SPARK   5
#define STUB_HOSTILE 6
#define STUB_NO_DRIVER 7
#define STUB_CRASH   8
#define STUB_BLOCK   9
#define STUB_HUGE    10

#define EXPORT __attribute__ ((visibility ("default")))

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

#define NVML_SUCCESS                 0
#define NVML_ERROR_UNINITIALIZED     1
#define NVML_ERROR_INVALID_ARGUMENT  2
#define NVML_ERROR_NOT_SUPPORTED     3
#define NVML_ERROR_NO_PERMISSION     4
#define NVML_ERROR_NOT_FOUND         6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_GPU_IS_LOST       15
#define NVML_ERROR_UNKNOWN           999

#define NVML_CLOCK_MEM 2

typedef struct
{
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct
{
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct
{
  const char *name;
  unsigned long long total;
  unsigned long long free;
  unsigned int bus_width;
  unsigned int mem_clock;
  unsigned int pcie_gen;
  unsigned int pcie_width;
  unsigned int device_id;
  unsigned int bus;
} Gpu;

#if STUB_MODE == STUB_SPARK
static const Gpu gpus[] = {
  { "NVIDIA GB10", 0, 0, 0, 0, 5, 1, 0x2e12, 0x0f },
};
#else
static const Gpu gpus[] = {
  { "NVIDIA GeForce RTX 3060", 12884901888ull, 12190990336ull, 192, 7501, 4, 16, 0x2504, 0x01 },
  { "NVIDIA GeForce RTX 4090", 25757220864ull, 25200000000ull, 384, 10501, 4, 16, 0x2684, 0x02 },
};
#endif

#define N_GPUS (sizeof gpus / sizeof gpus[0])

#if STUB_MODE == STUB_BLOCK
/* Written whole under a temporary name, then renamed: a reader never sees
 * half a number. */
static void
write_pid (void)
{
  const char *path = getenv ("HEADROOM_NVML_STUB_PIDFILE");
  char tmp[4096];
  char text[32];
  int fd, n;

  if (path == NULL || path[0] == '\0' ||
      snprintf (tmp, sizeof tmp, "%s.tmp", path) >= (int) sizeof tmp)
    return;
  n = snprintf (text, sizeof text, "%ld\n", (long) getpid ());
  fd = open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (write (fd, text, n) == n)
    rename (tmp, path);
  close (fd);
}

__attribute__ ((constructor)) static void
block_forever (void)
{
  write_pid ();
  for (;;)
    pause ();
}
#endif

static int initialized;

static const Gpu *
lookup (nvmlDevice_t device)
{
  for (unsigned int i = 0; i < N_GPUS; i++)
    if ((const void *) device == (const void *) &gpus[i])
      return &gpus[i];
  return NULL;
}

/* What every device query checks first, as the real library does; the
 * failing stand-in fails here with @failure, an error of the query's own. */
static nvmlReturn_t
check (nvmlDevice_t  device,
       const void   *out,
       nvmlReturn_t  failure,
       const Gpu   **gpu)
{
  *gpu = lookup (device);
#if STUB_MODE == STUB_FAILING
  return failure;
#endif
  if (!initialized)
    return NVML_ERROR_UNINITIALIZED;
  if (*gpu == NULL || out == NULL)
    return NVML_ERROR_INVALID_ARGUMENT;
  return NVML_SUCCESS;
}

EXPORT const char *
nvmlErrorString (nvmlReturn_t result)
{
#if STUB_MODE == STUB_HOSTILE
  static char noise[300];
  memset (noise, 'x', sizeof noise);   /* no terminator within reach */
  noise[sizeof noise - 1] = '\0';
  noise[3] = '\n';
  return noise;
#else
  switch (result)
    {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
#endif
}

#if STUB_MODE == STUB_CRASH
/* A driver that dies of SIGSEGV.  Not a sanitized null dereference: under
 * the sanitizer stage UBSan would turn it into exit status 1, and the
 * tests check that a crash is reported as one. */
__attribute__ ((no_sanitize ("undefined", "address")))
static void
crash (void)
{
  *(volatile int *) (volatile void *) 0 = 1;
}
#endif

EXPORT nvmlReturn_t
nvmlInit_v2 (void)
{
#if STUB_MODE == STUB_NO_DRIVER
  return NVML_ERROR_DRIVER_NOT_LOADED;
#elif STUB_MODE == STUB_SLOW
  sleep (30);
#elif STUB_MODE == STUB_CRASH
  crash ();
#endif
  initialized = 1;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlShutdown (void)
{
  if (!initialized)
    return NVML_ERROR_UNINITIALIZED;
  initialized = 0;
#if STUB_MODE == STUB_FAILING
  return NVML_ERROR_UNKNOWN;
#endif
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetCount_v2 (unsigned int *count)
{
  if (!initialized)
    return NVML_ERROR_UNINITIALIZED;
  if (count == NULL)
    return NVML_ERROR_INVALID_ARGUMENT;
#if STUB_MODE == STUB_HOSTILE
  *count = 1u << 31;
#else
  *count = N_GPUS;
#endif
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetHandleByIndex_v2 (unsigned int  index,
                               nvmlDevice_t *device)
{
  if (!initialized)
    return NVML_ERROR_UNINITIALIZED;
  if (device == NULL)
    return NVML_ERROR_INVALID_ARGUMENT;
#if STUB_MODE == STUB_HOSTILE
  *device = (nvmlDevice_t) &gpus[index % N_GPUS];
  return NVML_SUCCESS;
#endif
  if (index >= N_GPUS)
    return NVML_ERROR_INVALID_ARGUMENT;
#if STUB_MODE == STUB_FAILING
  if (index == 1)
    return NVML_ERROR_GPU_IS_LOST;
#endif
  *device = (nvmlDevice_t) &gpus[index];
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetName (nvmlDevice_t  device,
                   char         *name,
                   unsigned int  length)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, name, NVML_ERROR_NO_PERMISSION, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
#if STUB_MODE == STUB_HOSTILE
  memset (name, 'A', length);   /* fills the buffer, no terminator */
  name[2] = '\x1b';
  return NVML_SUCCESS;
#endif
  if (strlen (gpu->name) + 1 > length)
    return NVML_ERROR_INSUFFICIENT_SIZE;
  strcpy (name, gpu->name);
  return NVML_SUCCESS;
}

#if STUB_MODE != STUB_MISSING
EXPORT nvmlReturn_t
nvmlDeviceGetMemoryInfo (nvmlDevice_t  device,
                         nvmlMemory_t *memory)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, memory, NVML_ERROR_UNKNOWN, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
#if STUB_MODE == STUB_SPARK
  return NVML_ERROR_NOT_SUPPORTED;
#elif STUB_MODE == STUB_HOSTILE
  memory->total = 1000;
  memory->free = 5000;
  memory->used = 0;
  return NVML_SUCCESS;
#elif STUB_MODE == STUB_HUGE
  memory->total = ~0ull;
  memory->free = ~0ull;
  memory->used = 0;
  return NVML_SUCCESS;
#else
  memory->total = gpu->total;
  memory->free = gpu->free;
  memory->used = gpu->total - gpu->free;
  return NVML_SUCCESS;
#endif
}
#endif

EXPORT nvmlReturn_t
nvmlDeviceGetMemoryBusWidth (nvmlDevice_t  device,
                             unsigned int *bits)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, bits, NVML_ERROR_NOT_SUPPORTED, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
  if (gpu->bus_width == 0)
    return NVML_ERROR_NOT_SUPPORTED;
#if STUB_MODE == STUB_HOSTILE
  *bits = 0xffffffffu;
#else
  *bits = gpu->bus_width;
#endif
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxClockInfo (nvmlDevice_t  device,
                           int           type,
                           unsigned int *mhz)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, mhz, NVML_ERROR_NO_PERMISSION, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
  if (type != NVML_CLOCK_MEM)
    return NVML_ERROR_INVALID_ARGUMENT;
  if (gpu->mem_clock == 0)
    return NVML_ERROR_NOT_SUPPORTED;
  *mhz = gpu->mem_clock;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxPcieLinkGeneration (nvmlDevice_t  device,
                                    unsigned int *generation)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, generation, NVML_ERROR_UNKNOWN, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
  *generation = gpu->pcie_gen;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetMaxPcieLinkWidth (nvmlDevice_t  device,
                               unsigned int *width)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, width, NVML_ERROR_UNKNOWN, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
  *width = gpu->pcie_width;
  return NVML_SUCCESS;
}

EXPORT nvmlReturn_t
nvmlDeviceGetPciInfo_v3 (nvmlDevice_t   device,
                         nvmlPciInfo_t *pci)
{
  const Gpu *gpu;
  nvmlReturn_t rc = check (device, pci, NVML_ERROR_GPU_IS_LOST, &gpu);

  if (rc != NVML_SUCCESS)
    return rc;
  memset (pci, 0, sizeof *pci);
  pci->domain = 0;
  pci->bus = gpu->bus;
  pci->device = 0;
  pci->pciDeviceId = gpu->device_id << 16 | 0x10de;
  pci->pciSubSystemId = 0x88881462;
  /* As the real library writes them: 8-digit domain, upper case. */
  memcpy (pci->busId, "00000000:0", 10);
  pci->busId[10] = "0123456789ABCDEF"[gpu->bus >> 4];
  pci->busId[11] = "0123456789ABCDEF"[gpu->bus & 15];
  memcpy (pci->busId + 12, ":00.0", 6);
  memcpy (pci->busIdLegacy, pci->busId + 4, 13);
  return NVML_SUCCESS;
}
