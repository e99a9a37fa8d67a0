/* fake-trees.c — fake /sys, /proc and model caches for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-trees.h"
#include "gguf-writer.h"

/* ------------------------------------------------------------ files */

static char *
under (const char *root,
       const char *relative)
{
  return g_build_filename (root, relative, NULL);
}

static void
make_parent (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
}

static void
put (const char *root,
     const char *relative,
     const char *contents)
{
  g_autofree char *path = under (root, relative);
  g_autoptr(GError) error = NULL;

  make_parent (path);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
putf (const char *root,
      const char *relative,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static void
putf (const char *root,
      const char *relative,
      const char *format,
      ...)
{
  g_autofree char *contents = NULL;
  va_list args;

  va_start (args, format);
  contents = g_strdup_vprintf (format, args);
  va_end (args);
  put (root, relative, contents);
}

static void
put_bytes (const char   *root,
           const char   *relative,
           const guint8 *bytes,
           gsize         length)
{
  g_autofree char *path = under (root, relative);
  g_autoptr(GError) error = NULL;

  make_parent (path);
  g_file_set_contents (path, (const char *) bytes, length, &error);
  g_assert_no_error (error);
}

static void
link_to (const char *root,
         const char *relative,
         const char *target)
{
  g_autofree char *path = under (root, relative);

  make_parent (path);
  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
fifo (const char *root,
      const char *relative)
{
  g_autofree char *path = under (root, relative);

  make_parent (path);
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
}

static void
directory (const char *root,
           const char *relative)
{
  g_autofree char *path = under (root, relative);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

/* A file of @size bytes, all a hole. */
static void
sparse (const char *root,
        const char *relative,
        guint64     size)
{
  g_autofree char *path = under (root, relative);
  FILE *f;

  make_parent (path);
  f = fopen (path, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), size), ==, 0);
  fclose (f);
}

/* ----------------------------------------------------------- system */

static void
meminfo (const char *root,
         guint64     total_kib,
         guint64     available_kib)
{
  putf (root, "proc/meminfo",
        "MemTotal:       %" G_GUINT64_FORMAT " kB\n"
        "MemFree:         1048576 kB\n"
        "MemAvailable:   %" G_GUINT64_FORMAT " kB\n"
        "Buffers:          262144 kB\n"
        "Cached:          4194304 kB\n", total_kib, available_kib);
}

static void
cpuinfo (const char *root,
         const char *model,
         guint       cores,
         guint       threads)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < threads; i++)
    g_string_append_printf (text,
                            "processor\t: %u\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
                            "model\t\t: 97\nmodel name\t: %s\nstepping\t: 2\n"
                            "physical id\t: 0\nsiblings\t: %u\ncore id\t\t: %u\n"
                            "cpu cores\t: %u\nflags\t\t: fpu vme de pse avx avx2 avx512f\n\n",
                            i, model, threads, i % cores, cores);
  put (root, "proc/cpuinfo", text->str);
  putf (root, "sys/devices/system/cpu/online", "0-%u\n", threads - 1);
  put (root, "sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "4500000\n");
}

typedef struct
{
  const char *card;
  const char *slot;
  guint16 vendor;
  guint16 device;
  const char *driver;
} Card;

/* A DRM card as the kernel shows it: the PCI function's directory under
 * /sys/devices, the card inside it, and the class link to the card. */
static char *
card (const char *root,
      const Card *c)
{
  g_autofree char *dev = g_strdup_printf ("sys/devices/pci0000:00/0000:00:01.1/%s", c->slot);
  g_autofree char *node = g_strdup_printf ("%s/drm/%s", dev, c->card);
  g_autofree char *class_link = g_strdup_printf ("sys/class/drm/%s", c->card);
  g_autofree char *target = g_strdup_printf ("../../devices/pci0000:00/0000:00:01.1/%s/drm/%s",
                                             c->slot, c->card);
  g_autofree char *path = NULL;
  g_autofree char *connector = g_strdup_printf ("sys/class/drm/%s-DP-1", c->card);

  path = g_strdup_printf ("%s/vendor", dev);
  putf (root, path, "0x%04x\n", c->vendor);
  g_free (path);
  path = g_strdup_printf ("%s/device", dev);
  putf (root, path, "0x%04x\n", c->device);
  g_free (path);
  path = g_strdup_printf ("%s/class", dev);
  put (root, path, "0x030000\n");
  g_free (path);
  path = g_strdup_printf ("%s/uevent", dev);
  putf (root, path, "DRIVER=%s\nPCI_CLASS=30000\nPCI_ID=%04X:%04X\n"
        "PCI_SUBSYS_ID=1DA2:E471\nPCI_SLOT_NAME=%s\nMODALIAS=pci:v0000%04X\n",
        c->driver, c->vendor, c->device, c->slot, c->vendor);
  g_free (path);
  path = g_strdup_printf ("%s/max_link_speed", dev);
  put (root, path, "16.0 GT/s PCIe\n");
  g_free (path);
  path = g_strdup_printf ("%s/max_link_width", dev);
  put (root, path, "16\n");
  g_free (path);

  path = g_strdup_printf ("%s/dev", node);
  put (root, path, "226:0\n");
  g_free (path);
  path = g_strdup_printf ("%s/device", node);
  link_to (root, path, "../..");
  link_to (root, class_link, target);
  link_to (root, connector, target);   /* a connector: not a card */
  return g_steal_pointer (&dev);
}

/* amdgpu's memory figures, in the device's directory @dev. */
static void
amd_vram (const char *root,
          const char *dev,
          const char *total,
          const char *used)
{
  g_autofree char *total_path = g_strdup_printf ("%s/mem_info_vram_total", dev);
  g_autofree char *used_path = g_strdup_printf ("%s/mem_info_vram_used", dev);

  put (root, total_path, total);
  put (root, used_path, used);
}

/* A card node under @device_dir whose device link is @device_target,
 * and its link in /sys/class/drm: the skeleton of the hostile cards. */
static void
bare_card (const char *root,
           const char *device_dir,
           const char *name,
           const char *device_target)
{
  g_autofree char *node = g_strdup_printf ("sys/devices/%s/drm/%s", device_dir, name);
  g_autofree char *link = g_strdup_printf ("%s/device", node);
  g_autofree char *class_link = g_strdup_printf ("sys/class/drm/%s", name);
  g_autofree char *target = g_strdup_printf ("../../devices/%s/drm/%s", device_dir, name);

  directory (root, node);
  link_to (root, link, device_target);
  link_to (root, class_link, target);
}

static void
pci_ids (const char *root)
{
  put (root, "usr/share/hwdata/pci.ids",
       "# pci.ids excerpt\n"
       "10de  NVIDIA Corporation\n"
       "\t2504  GA106 [GeForce RTX 3060 Lite Hash Rate]\n"
       "\t\t1462 397d  GeForce RTX 3060\n"
       "1002  Advanced Micro Devices, Inc. [AMD/ATI]\n"
       "\t1586  Strix Halo [Radeon Graphics / Radeon 8050S / 8060S Graphics]\n"
       "\t744c  Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]\n"
       "8086  Intel Corporation\n"
       "\t56a0  DG2 [Arc A770]\n"
       "\ta780  Raptor Lake-S GT1 [UHD Graphics 770]\n");
}

/* SMBIOS type 17 as /sys/firmware/dmi/entries/17-N/raw holds it. */
static void
dimm (const char *root,
      guint       index,
      guint       size_mib,
      guint       type,
      guint       speed,
      guint       configured)
{
  guint8 raw[0x28 + 2] = { 0 };
  g_autofree char *path = g_strdup_printf ("sys/firmware/dmi/entries/17-%u/raw", index);

  raw[0] = 17;
  raw[1] = 0x28;
  raw[0x08] = 72;            /* total width, with ECC bits */
  raw[0x0a] = 64;            /* data width */
  raw[0x0c] = size_mib & 0xff;
  raw[0x0d] = size_mib >> 8;
  raw[0x12] = type;
  raw[0x15] = speed & 0xff;
  raw[0x16] = speed >> 8;
  raw[0x20] = configured & 0xff;
  raw[0x21] = configured >> 8;
  put_bytes (root, path, raw, sizeof raw);
}

/* The machines with a GPU: memory and CPU, cards, amdgpu's memory figures
 * for the first card. */
typedef struct
{
  const char *scenario;
  guint64 total_kib;
  guint64 available_kib;
  const char *cpu;
  guint cores;
  guint threads;
  Card cards[2];
  const char *vram_total;
  const char *vram_used;
} System;

static const System systems[] = {
  { "amd", 65536000, 40000000, "AMD Ryzen 9 7950X 16-Core Processor", 16, 32,
    { { "card0", "0000:03:00.0", 0x1002, 0x744c, "amdgpu" } },
    "25753026560\n", "1073741824\n" },
  { "intel-arc", 32768000, 20000000, "13th Gen Intel(R) Core(TM) i7-13700K", 16, 24,
    { { "card0", "0000:00:02.0", 0x8086, 0xa780, "i915" },
      { "card1", "0000:03:00.0", 0x8086, 0x56a0, "i915" } } },
  { "igpu", 32768000, 24000000, "13th Gen Intel(R) Core(TM) i5-13400", 10, 16,
    { { "card1", "0000:00:02.0", 0x8086, 0xa780, "xe" } } },
  { "strix-halo", 130023424, 120000000, "AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", 16, 32,
    { { "card0", "0000:c5:00.0", 0x1002, 0x1586, "amdgpu" } },
    "536870912\n", "104857600\n" },
  { "nvidia-sysfs", 32768000, 16000000, "AMD Ryzen 7 5800X 8-Core Processor", 8, 16,
    { { "card0", "0000:01:00.0", 0x10de, 0x2504, "nouveau" } } },
};

/* Malformed files, FIFOs, link loops and links out of the root. */
static void
write_hostile_system (const char *root)
{
  g_autoptr(GString) big = g_string_new ("0x");
  guint8 garbage[64];
  guint8 lying[20] = { 17, 200 };

  put (root, "proc/meminfo", "MemTotal: lots kB\nMemAvailable: -5 kB\n");
  fifo (root, "proc/cpuinfo");
  put (root, "sys/devices/system/cpu/online", "0-zz,\n");
  fifo (root, "usr/share/hwdata/pci.ids");

  /* card0: the device link loops */
  link_to (root, "sys/devices/loop/a", "b");
  link_to (root, "sys/devices/loop/b", "a");
  bare_card (root, "loop", "card0", "../../a");

  /* card1: the device link leaves the tree for the real /sys */
  bare_card (root, "away", "card1", "/sys/devices/system/cpu");

  /* card2: vendor is a FIFO; card3: vendor is far too big; card4:
   * binary garbage; card5: device is a file; card6: a link to
   * itself; a card name too long to be a number */
  fifo (root, "sys/devices/fifo/vendor");
  put (root, "sys/devices/fifo/device", "0x744c\n");
  bare_card (root, "fifo", "card2", "../..");

  for (guint i = 0; i < 300 * 1024; i++)
    g_string_append_c (big, '1');
  put (root, "sys/devices/big/vendor", big->str);
  put (root, "sys/devices/big/device", "0x744c\n");
  bare_card (root, "big", "card3", "../..");

  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = (guint8) (i * 37 + 11);
  put_bytes (root, "sys/devices/garbage/vendor", garbage, sizeof garbage);
  put_bytes (root, "sys/devices/garbage/device", garbage, sizeof garbage);
  bare_card (root, "garbage", "card4", "../..");

  directory (root, "sys/class/drm/card5");
  put (root, "sys/class/drm/card5/device", "not a directory\n");
  link_to (root, "sys/class/drm/card6", "card6");
  directory (root, "sys/class/drm/card99999999999999999999");

  /* SMBIOS: a memory device whose length field lies */
  put_bytes (root, "sys/firmware/dmi/entries/17-0/raw", lying, sizeof lying);
}

void
hr_fake_system_write (const char *root,
                      const char *scenario)
{
  gboolean known = g_str_equal (scenario, "empty");   /* /sys/class/drm only */
  /* "amd" with figures no machine has, and no /proc/cpuinfo */
  gboolean absurd = g_str_equal (scenario, "absurd");

  directory (root, "sys/class/drm");
  put (root, "sys/class/drm/version", "drm 1.1.0 20060810\n");

  for (guint i = 0; i < G_N_ELEMENTS (systems); i++)
    {
      const System *system = &systems[i];

      if (!g_str_equal (absurd ? "amd" : scenario, system->scenario))
        continue;
      known = TRUE;
      meminfo (root, absurd ? G_MAXUINT64 / 1024 : system->total_kib, system->available_kib);
      if (!absurd)
        cpuinfo (root, system->cpu, system->cores, system->threads);
      pci_ids (root);
      for (guint c = 0; c < G_N_ELEMENTS (system->cards) && system->cards[c].card != NULL; c++)
        {
          g_autofree char *dev = card (root, &system->cards[c]);

          if (c == 0 && system->vram_total != NULL)
            amd_vram (root, dev, absurd ? "18446744073709551615\n" : system->vram_total,
                      system->vram_used);
        }
      break;
    }

  if (g_str_equal (scenario, "intel-arc"))
    put (root, "sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0/drm/card1/lmem_total_bytes",
         "17179869184\n");
  else if (g_str_equal (scenario, "igpu"))
    {
      /* Two DDR5-5600 modules running at 5200, and an empty slot. */
      dimm (root, 0, 16384, 0x22, 5600, 5200);
      dimm (root, 1, 16384, 0x22, 5600, 5200);
      dimm (root, 2, 0, 0x02, 0, 0);
    }
  else if (g_str_equal (scenario, "hostile"))
    {
      known = TRUE;
      write_hostile_system (root);
    }

  if (!known)
    g_error ("unknown fake system “%s”", scenario);
}

/* ----------------------------------------------------------- models */

/* A small llama GGUF file (a hole where the data is), loadable by the
 * importer.  @shard / @count: 0 / 0 for a whole file. */
static void
write_gguf (const char *path,
            const char *name,
            guint       shard,
            guint       count)
{
  enum { HIDDEN = 256, HEADS = 4, KV = 2, HEAD_DIM = 64, FFN = 512, VOCAB = 64, LAYERS = 2 };
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autoptr(GError) error = NULL;
  const guint n_tensors = 3 + LAYERS * 9;
  guint64 dims[2];

#define TENSOR(tname, type, d0, d1, bytes) \
  G_STMT_START { dims[0] = (d0); dims[1] = (d1); \
    hr_gguf_writer_add_tensor (w, tname, type, (d1) != 0 ? 2 : 1, dims, bytes); } G_STMT_END

  if (count > 1)
    {
      hr_gguf_writer_add_uint16 (w, "split.no", shard);
      hr_gguf_writer_add_uint16 (w, "split.count", count);
      hr_gguf_writer_add_int32 (w, "split.tensors.count", n_tensors);
    }
  if (shard == 0)
    {
      hr_gguf_writer_add_string (w, "general.architecture", "llama");
      hr_gguf_writer_add_string (w, "general.name", name);
      hr_gguf_writer_add_uint32 (w, "general.file_type", 7);   /* Q8_0 */
      hr_gguf_writer_add_uint32 (w, "llama.block_count", LAYERS);
      hr_gguf_writer_add_uint32 (w, "llama.context_length", 4096);
      hr_gguf_writer_add_uint32 (w, "llama.embedding_length", HIDDEN);
      hr_gguf_writer_add_uint32 (w, "llama.feed_forward_length", FFN);
      hr_gguf_writer_add_uint32 (w, "llama.attention.head_count", HEADS);
      hr_gguf_writer_add_uint32 (w, "llama.attention.head_count_kv", KV);
      hr_gguf_writer_add_uint32 (w, "llama.rope.dimension_count", HEAD_DIM);
      hr_gguf_writer_add_tokens (w, VOCAB);

      TENSOR ("token_embd.weight", HR_GGML_TYPE_Q8_0, HIDDEN, VOCAB, HIDDEN * VOCAB / 32 * 34);
      for (guint l = 0; l < LAYERS; l++)
        {
          static const struct { const char *name; guint d0, d1; } t[] = {
            { "attn_norm.weight", HIDDEN, 0 },
            { "attn_q.weight", HIDDEN, HEADS * HEAD_DIM },
            { "attn_k.weight", HIDDEN, KV * HEAD_DIM },
            { "attn_v.weight", HIDDEN, KV * HEAD_DIM },
            { "attn_output.weight", HEADS * HEAD_DIM, HIDDEN },
            { "ffn_norm.weight", HIDDEN, 0 },
            { "ffn_gate.weight", HIDDEN, FFN },
            { "ffn_up.weight", HIDDEN, FFN },
            { "ffn_down.weight", FFN, HIDDEN },
          };

          for (guint k = 0; k < G_N_ELEMENTS (t); k++)
            {
              g_autofree char *tname = g_strdup_printf ("blk.%u.%s", l, t[k].name);

              if (t[k].d1 == 0)
                TENSOR (tname, HR_GGML_TYPE_F32, t[k].d0, 0, t[k].d0 * 4);
              else
                TENSOR (tname, HR_GGML_TYPE_Q8_0, t[k].d0, t[k].d1,
                        (guint64) t[k].d0 * t[k].d1 / 32 * 34);
            }
        }
      TENSOR ("output_norm.weight", HR_GGML_TYPE_F32, HIDDEN, 0, HIDDEN * 4);
    }
  if (count <= 1 || shard == count - 1)
    TENSOR ("output.weight", HR_GGML_TYPE_Q8_0, HIDDEN, VOCAB, HIDDEN * VOCAB / 32 * 34);
#undef TENSOR

  make_parent (path);
  hr_gguf_writer_write_file (w, path, &error);
  g_assert_no_error (error);
}

void
hr_fake_write_tiny_gguf (const char *path,
                         const char *name)
{
  write_gguf (path, name, 0, 0);
}

static char *
copy_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "hf", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* The one revision of every fake Hugging Face repository. */
#define REVISION "0123456789abcdef0123456789abcdef01234567"

/* A Hugging Face cache entry: blobs named by hash, snapshots linking to
 * them. */
static void
hf_blob (const char *hub,
         const char *repo_folder,
         const char *file,
         const char *hash,
         const char *contents,
         guint64     sparse_size)
{
  g_autofree char *blob = g_strdup_printf ("%s/blobs/%s", repo_folder, hash);
  g_autofree char *link = g_strdup_printf ("%s/snapshots/%s/%s", repo_folder, REVISION, file);
  g_autofree char *target = g_strdup_printf ("../../blobs/%s", hash);

  if (contents != NULL)
    put (hub, blob, contents);
  else
    sparse (hub, blob, sparse_size);
  link_to (hub, link, target);
}

/* A safetensors file: the header says two BF16 tensors of @half bytes
 * each; the data is a hole. */
static void
safetensors (const char *hub,
             const char *repo_folder,
             const char *hash,
             guint64     half)
{
  g_autofree char *header = g_strdup_printf (
    "{\"__metadata__\":{\"format\":\"pt\"},"
    "\"model.embed_tokens.weight\":{\"dtype\":\"BF16\",\"shape\":[1,1],\"data_offsets\":[0,%"
    G_GUINT64_FORMAT "]},"
    "\"lm_head.weight\":{\"dtype\":\"BF16\",\"shape\":[1,1],\"data_offsets\":[%"
    G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]}}", half, half, 2 * half);
  guint64 n = strlen (header);
  g_autofree char *blob = g_strdup_printf ("%s/blobs/%s", repo_folder, hash);
  g_autofree char *path = under (hub, blob);
  g_autofree char *link = g_strdup_printf ("%s/snapshots/%s/model.safetensors",
                                           repo_folder, REVISION);
  guint8 length[8];
  FILE *f;

  for (guint i = 0; i < 8; i++)
    length[i] = (n >> (8 * i)) & 0xff;
  make_parent (path);
  f = fopen (path, "w");
  g_assert_nonnull (f);
  fwrite (length, 1, 8, f);
  fwrite (header, 1, n, f);
  g_assert_cmpint (ftruncate (fileno (f), 8 + n + 2 * half), ==, 0);
  fclose (f);
  g_free (path);
  path = g_strdup_printf ("../../blobs/%s", hash);
  link_to (hub, link, path);
}

#define TINY_DIGEST "3f2a5b0c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"
#define MISSING_DIGEST "0000000000000000000000000000000000000000000000000000000000000000"

static void
ollama_manifest (const char *root,
                 const char *relative,
                 const char *model_digest,
                 guint64     size)
{
  putf (root, relative,
        "{\"schemaVersion\":2,"
        "\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
        "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\","
        "\"digest\":\"sha256:%s\",\"size\":487},"
        "\"layers\":["
        "{\"mediaType\":\"application/vnd.ollama.image.model\",\"digest\":\"%s\",\"size\":%"
        G_GUINT64_FORMAT "},"
        "{\"mediaType\":\"application/vnd.ollama.image.template\","
        "\"digest\":\"sha256:%s\",\"size\":1429},"
        "{\"mediaType\":\"application/vnd.ollama.image.params\","
        "\"digest\":\"sha256:%s\",\"size\":110}]}\n",
        MISSING_DIGEST, model_digest, size, MISSING_DIGEST, MISSING_DIGEST);
}

/**
 * hr_fake_models_write:
 *
 * Under @home:
 *   .cache/huggingface/hub   Qwen/Qwen3-8B (sharded, index), meta-llama/
 *                            Llama-3.2-1B-Instruct (one safetensors file),
 *                            bartowski/Tiny-GGUF (a GGUF file), and two
 *                            hostile repos (a link out, a link loop)
 *   .ollama/models           tiny:latest; a manifest whose digest is a
 *                            path; one whose blob is missing
 *   .lmstudio/models         lmstudio-community/Tiny-GGUF/tiny-Q8_0.gguf and
 *                            a vision projector (not a model)
 *   .cache/lm-studio/models  pub/Split-GGUF: a model in two shards
 *   .cache/llama.cpp         bartowski_Tiny-GGUF_tiny-Q4_0.gguf and its etag
 */
void
hr_fake_models_write (const char *home)
{
  g_autofree char *hub = g_build_filename (home, ".cache", "huggingface", "hub", NULL);
  g_autofree char *ollama = g_build_filename (home, ".ollama", "models", NULL);
  g_autofree char *qwen = copy_fixture ("Qwen--Qwen3-8B.json");
  g_autofree char *llama = copy_fixture ("meta-llama--Llama-3.2-1B-Instruct.json");
  g_autofree char *path = NULL;
  GStatBuf st;
  const char *rev = REVISION;

  /* Qwen3-8B: config, index, two shards */
  put (hub, "models--Qwen--Qwen3-8B/refs/main", rev);
  hf_blob (hub, "models--Qwen--Qwen3-8B", "config.json",
           "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", qwen, 0);
  hf_blob (hub, "models--Qwen--Qwen3-8B", "model.safetensors.index.json",
           "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2",
           "{\"metadata\":{\"total_size\":16381470720},\"weight_map\":{"
           "\"lm_head.weight\":\"model-00002-of-00002.safetensors\","
           "\"model.embed_tokens.weight\":\"model-00001-of-00002.safetensors\"}}", 0);
  hf_blob (hub, "models--Qwen--Qwen3-8B", "model-00001-of-00002.safetensors",
           "c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3", NULL, 4096);
  hf_blob (hub, "models--Qwen--Qwen3-8B", "model-00002-of-00002.safetensors",
           "d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4", NULL, 4096);

  /* Llama-3.2-1B: config and one safetensors file, no index */
  put (hub, "models--meta-llama--Llama-3.2-1B-Instruct/refs/main", rev);
  hf_blob (hub, "models--meta-llama--Llama-3.2-1B-Instruct", "config.json",
           "f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6", llama, 0);
  safetensors (hub, "models--meta-llama--Llama-3.2-1B-Instruct",
               "e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5", 1234567);

  /* A GGUF repository */
  put (hub, "models--bartowski--Tiny-GGUF/refs/main", rev);
  path = g_build_filename (hub, "models--bartowski--Tiny-GGUF", "blobs",
                           "9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a", NULL);
  write_gguf (path, "Tiny HF", 0, 0);
  g_clear_pointer (&path, g_free);
  link_to (hub, "models--bartowski--Tiny-GGUF/snapshots/" REVISION "/tiny-Q4_K_M.gguf",
           "../../blobs/9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a");

  /* Hostile: a snapshot file linking out of the repository, one linking
   * to itself, a linked directory, and something that is not a model */
  put (hub, "models--evil--escape/refs/main", rev);
  link_to (hub, "models--evil--escape/snapshots/" REVISION "/config.json",
           "../../../models--Qwen--Qwen3-8B/blobs/"
           "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1");
  put (hub, "models--evil--loop/refs/main", "../../../../etc");
  link_to (hub, "models--evil--loop/snapshots/main/config.json", "config.json");
  link_to (hub, "models--evil--loop/snapshots/up", "..");
  directory (hub, "datasets--someone--data/snapshots");

  /* Ollama */
  path = g_build_filename (ollama, "blobs", "sha256-" TINY_DIGEST, NULL);
  write_gguf (path, "Tiny Ollama", 0, 0);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_clear_pointer (&path, g_free);
  ollama_manifest (ollama, "manifests/registry.ollama.ai/library/tiny/latest",
                   "sha256:" TINY_DIGEST, st.st_size);
  ollama_manifest (ollama, "manifests/registry.ollama.ai/library/evil/latest",
                   "sha256:../../../../../../etc/passwd", 100);
  ollama_manifest (ollama, "manifests/hf.co/bartowski/Tiny-GGUF/Q4_K_M",
                   "sha256:" MISSING_DIGEST, 100);
  put (ollama, "manifests/registry.ollama.ai/library/broken/latest", "{ not json");

  /* LM Studio */
  path = g_build_filename (home, ".lmstudio", "models", "lmstudio-community", "Tiny-GGUF",
                           "tiny-Q8_0.gguf", NULL);
  write_gguf (path, "Tiny LM Studio", 0, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (home, ".lmstudio", "models", "lmstudio-community", "Tiny-GGUF",
                           "mmproj-tiny-f16.gguf", NULL);
  write_gguf (path, "Projector", 0, 0);
  g_clear_pointer (&path, g_free);
  for (guint i = 0; i < 2; i++)
    {
      path = g_strdup_printf ("%s/.cache/lm-studio/models/pub/Split-GGUF/"
                              "split-Q8_0-%05u-of-00002.gguf", home, i + 1);
      write_gguf (path, "Tiny Split", i, 2);
      g_clear_pointer (&path, g_free);
    }

  /* llama.cpp */
  path = g_build_filename (home, ".cache", "llama.cpp", "bartowski_Tiny-GGUF_tiny-Q4_0.gguf", NULL);
  write_gguf (path, "Tiny llama.cpp", 0, 0);
  g_clear_pointer (&path, g_free);
  put (home, ".cache/llama.cpp/bartowski_Tiny-GGUF_tiny-Q4_0.gguf.json",
       "{\"etag\":\"\\\"abc\\\"\",\"lastModified\":\"Tue, 01 Apr 2025 00:00:00 GMT\"}");
}

/* Every directory's files are hard links to its first one: new inodes
 * would make the cache a minute to write on a busy disk, and a link is a
 * directory entry like any other file's. */
void
hr_fake_models_write_many (const char *dir,
                           guint       n)
{
  for (guint d = 0; d * 1000 < n; d++)
    {
      g_autofree char *sub = g_strdup_printf ("%s/publisher-%u/repo", dir, d);
      g_autofree char *first = g_strdup_printf ("%s/file-%u.bin", sub, d * 1000);

      g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
      g_assert_true (g_file_set_contents (first, "", 0, NULL));
      for (guint i = d * 1000 + 1; i < MIN (n, (d + 1) * 1000); i++)
        {
          g_autofree char *path = g_strdup_printf ("%s/file-%u.bin", sub, i);

          g_assert_cmpint (link (first, path), ==, 0);
        }
    }
}

/* The usual places under @home. */
HrLocalRoots *
hr_fake_models_roots (const char *home)
{
  HrLocalRoots *roots = hr_local_roots_new ();
  g_autofree char *hf = g_build_filename (home, ".cache", "huggingface", "hub", NULL);
  g_autofree char *ollama = g_build_filename (home, ".ollama", "models", NULL);
  g_autofree char *lmstudio = g_build_filename (home, ".lmstudio", "models", NULL);
  g_autofree char *lmstudio_old = g_build_filename (home, ".cache", "lm-studio", "models", NULL);
  g_autofree char *llamacpp = g_build_filename (home, ".cache", "llama.cpp", NULL);

  hr_local_roots_add (roots, HR_LOCAL_SOURCE_HUGGINGFACE, hf);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_OLLAMA, ollama);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LMSTUDIO, lmstudio);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LMSTUDIO, lmstudio_old);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LLAMACPP, llamacpp);
  return roots;
}
