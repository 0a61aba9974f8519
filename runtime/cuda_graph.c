//===- cuda_graph.c - Replaying a program as a CUDA graph --------*- C -*-===//
//
// A program whose host code only enqueues work on the stream (kernels,
// cuBLASLt products, device copies) tells the runtime so by calling
// mlxrt_graph_capturable first thing; mlxc emits that call when the graph
// has no host code that reads or writes buffers. Such a program, run again
// on the same buffers, is captured once into a CUDA graph and afterwards
// replayed with one cuGraphLaunch: no per-kernel launch overhead, no module
// or function lookups, no allocations.
//
// The first run on a set of buffers is never captured: it loads the modules
// and lets cuBLASLt pick its algorithms, which do not belong in a graph.
// While capturing, the ABI functions (cuda_abi.c) change behaviour:
// synchronizations and prefetches are skipped (the run prefetches before
// and after the program), intermediates become graph memory that lives as
// long as the graph, and copies from host memory (the constants) are made
// once after capture instead of being captured. If anything fails during
// capture, the program runs again uncaptured and is never captured again.
//
// A device opened with no_cuda_graphs (MLXRT_NO_GRAPH=1 on the command line)
// never captures, so that both paths can be tested.
//
//===----------------------------------------------------------------------===//

#include "cuda_internal.h"

#include <stdlib.h>
#include <string.h>

/// Frees the memory of graph `id` (allocated while it was captured).
static void releaseGraphMemory(mlxrt_cuda_device *dev, unsigned id) {
  for (size_t i = dev->numAllocs; i-- > 0;)
    if (dev->allocs[i].kind == MLXRT_CUDA_GRAPH_MEMORY &&
        dev->allocs[i].graph == id)
      mlxrt_cuda_release(dev, dev->allocs[i].key, false);
}

static void clearUploads(mlxrt_cuda_graph *g) {
  for (size_t i = 0; i < g->numUploads; ++i)
    free(g->uploads[i].owned);
  g->numUploads = 0;
}

static void resetGraph(mlxrt_cuda_device *dev, mlxrt_cuda_graph *g) {
  if (g->exec || g->id) // The graph or its memory may be in use.
    mlxrt_cuda_wait_runs(dev, dev->enqueued);
  if (g->exec)
    dev->drv->graphExecDestroy(g->exec);
  g->exec = NULL;
  if (g->id)
    releaseGraphMemory(dev, g->id);
  free(g->args);
  clearUploads(g);
  free(g->uploads);
  memset(g, 0, sizeof(*g));
}

void mlxrt_cuda_graph_reset(mlxrt_cuda_device *dev) {
  resetGraph(dev, &dev->graph);
}

void mlxrt_cuda_graph_reset_all(mlxrt_cuda_device *dev) {
  resetGraph(dev, &dev->graph);
  for (size_t i = 0; i < MLXRT_CUDA_CACHED_GRAPHS; ++i)
    resetGraph(dev, &dev->cached[i]);
}

static bool usesBuffer(const mlxrt_cuda_graph *g, void *view) {
  for (size_t i = 0; i < g->numArgs; ++i)
    if (g->args[i] == view)
      return true;
  return false;
}

void mlxrt_cuda_graph_forget_buffer(mlxrt_cuda_device *dev, void *view) {
  if (usesBuffer(&dev->graph, view))
    resetGraph(dev, &dev->graph);
  for (size_t i = 0; i < MLXRT_CUDA_CACHED_GRAPHS; ++i)
    if (usesBuffer(&dev->cached[i], view))
      resetGraph(dev, &dev->cached[i]);
}

static bool sameProgram(const mlxrt_cuda_graph *g, mlxrt_entry_fn entry,
                        void **args, size_t numArgs) {
  return g->entry == entry && g->numArgs == numArgs &&
         (numArgs == 0 || memcmp(g->args, args, numArgs * sizeof(void *)) == 0);
}

void mlxrt_cuda_graph_select(mlxrt_cuda_device *dev, mlxrt_entry_fn entry,
                             void **args, size_t numArgs) {
  mlxrt_cuda_graph *g = &dev->graph;
  if (!g->entry || sameProgram(g, entry, args, numArgs))
    return;
  mlxrt_cuda_graph *cached = dev->cached;
  const size_t n = MLXRT_CUDA_CACHED_GRAPHS;
  size_t hit = n;
  for (size_t i = 0; i < n && hit == n; ++i)
    if (cached[i].entry && sameProgram(&cached[i], entry, args, numArgs))
      hit = i;
  // Only a graph that exists or will be captured is worth a slot.
  bool keep = g->state == MLXRT_GRAPH_READY || g->state == MLXRT_GRAPH_SEEN;
  mlxrt_cuda_graph current = *g;
  if (hit < n) {
    *g = cached[hit];
    memmove(&cached[hit], &cached[hit + 1], (n - 1 - hit) * sizeof(*cached));
    memset(&cached[n - 1], 0, sizeof(*cached));
  } else {
    memset(g, 0, sizeof(*g));
  }
  if (!keep) {
    resetGraph(dev, &current);
    return;
  }
  // The current one goes last; the oldest leaves when all slots are taken.
  if (cached[0].entry && cached[n - 1].entry) {
    resetGraph(dev, &cached[0]);
    memmove(&cached[0], &cached[1], (n - 1) * sizeof(*cached));
    memset(&cached[n - 1], 0, sizeof(*cached));
  }
  size_t free = 0;
  while (cached[free].entry)
    ++free;
  cached[free] = current;
}

/// Forgets the old program and remembers this one (state NONE).
static void remember(mlxrt_cuda_device *dev, mlxrt_entry_fn entry, void **args,
                     size_t numArgs) {
  mlxrt_cuda_graph_reset(dev);
  mlxrt_cuda_graph *g = &dev->graph;
  g->id = ++dev->lastGraphId;
  g->args = malloc((numArgs ? numArgs : 1) * sizeof(void *));
  if (!g->args) {
    g->state = MLXRT_GRAPH_UNCAPTURED; // Not remembered: never captured.
    return;
  }
  if (numArgs)
    memcpy(g->args, args, numArgs * sizeof(void *));
  g->numArgs = numArgs;
  g->entry = entry;
}

/// Ends the capture the program began; instantiates, uploads the constants
/// and launches the graph. Returns false if the capture must be given up
/// (nothing of it ran).
static bool finishCapture(mlxrt_cuda_device *dev) {
  const mlxrt_cuda_driver *drv = dev->drv;
  mlxrt_cuda_graph *g = &dev->graph;
  CUgraph graph = NULL;
  CUresult r = drv->streamEndCapture(dev->stream, &graph);
  g->capturing = false;
  bool ok = !dev->failed && r == CUDA_SUCCESS && graph;
  if (ok)
    ok = drv->graphInstantiate(&g->exec, graph, 0) == CUDA_SUCCESS;
  if (graph)
    drv->graphDestroy(graph);
  if (!ok)
    return false;
  // The graph's memory is new: the constants go in once.
  for (size_t i = 0; i < g->numUploads; ++i) {
    mlxrt_cuda_upload *u = &g->uploads[i];
    if (!mlxrt_cuda_check(dev, drv->cuMemcpyHtoD_v2(u->dst, u->src, u->bytes),
                          "cuMemcpyHtoD_v2 of a constant (%zu bytes) into "
                          "graph memory",
                          u->bytes))
      return true; // A real failure: the run reports it.
  }
  g->state = MLXRT_GRAPH_READY;
  mlxrt_cuda_check(dev, drv->graphLaunch(g->exec, dev->stream),
                   "cuGraphLaunch of the captured program");
  return true;
}

bool mlxrt_cuda_graph_replaces_run(const mlxrt_cuda_device *dev,
                                   mlxrt_entry_fn entry, void **args,
                                   size_t numArgs) {
  const mlxrt_cuda_graph *g = &dev->graph;
  if (!sameProgram(g, entry, args, numArgs))
    return false;
  return g->state == MLXRT_GRAPH_READY ||
         (g->state == MLXRT_GRAPH_SEEN && dev->drv->streamBeginCapture &&
          !dev->noGraphs);
}

void mlxrt_cuda_graph_run(mlxrt_cuda_device *dev, mlxrt_entry_fn entry,
                          void **args, size_t numArgs) {
  mlxrt_cuda_graph *g = &dev->graph;
  if (!sameProgram(g, entry, args, numArgs))
    remember(dev, entry, args, numArgs);
  if (g->state == MLXRT_GRAPH_READY) {
    mlxrt_cuda_check(dev, dev->drv->graphLaunch(g->exec, dev->stream),
                     "cuGraphLaunch of the captured program");
    return;
  }
  g->declared = false;
  g->capture = g->state == MLXRT_GRAPH_SEEN && dev->drv->streamBeginCapture &&
               !dev->noGraphs;
  entry(args);
  g->capture = false;
  bool declared = g->declared;
  g->declared = false;
  if (g->capturing) {
    if (finishCapture(dev))
      return;
    // Give up graphs for this program; nothing ran, so run it as is.
    releaseGraphMemory(dev, g->id);
    clearUploads(g);
    g->state = MLXRT_GRAPH_UNCAPTURED;
    mlxrt_cuda_clear_failure(dev);
    entry(args);
    g->declared = false;
    return;
  }
  if (g->state == MLXRT_GRAPH_NONE && !dev->failed)
    g->state = declared ? MLXRT_GRAPH_SEEN : MLXRT_GRAPH_UNCAPTURED;
}

void mlxrt_graph_capturable(void) {
  mlxrt_cuda_device *dev = mlxrt_cuda_active();
  if (!dev || dev->failed)
    return;
  mlxrt_cuda_graph *g = &dev->graph;
  g->declared = true;
  if (!g->capture || g->capturing)
    return;
  // Relaxed: the driver calls of the ABI that are not stream work (memory
  // queries, allocations) stay legal during capture.
  if (dev->drv->streamBeginCapture(
          dev->stream, CU_STREAM_CAPTURE_MODE_RELAXED) == CUDA_SUCCESS)
    g->capturing = true;
  else
    g->state = MLXRT_GRAPH_UNCAPTURED;
}

bool mlxrt_cuda_capture_upload(mlxrt_cuda_device *dev, CUdeviceptr dst,
                               const void *src, size_t bytes) {
  mlxrt_cuda_graph *g = &dev->graph;
  if (g->numUploads == g->capUploads) {
    size_t cap = g->capUploads ? 2 * g->capUploads : 8;
    mlxrt_cuda_upload *grown = realloc(g->uploads, cap * sizeof(*grown));
    if (!grown) {
      mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
      return false;
    }
    g->uploads = grown;
    g->capUploads = cap;
  }
  g->uploads[g->numUploads++] = (mlxrt_cuda_upload){dst, src, bytes, NULL};
  return true;
}

bool mlxrt_cuda_capture_upload_copy(mlxrt_cuda_device *dev, CUdeviceptr dst,
                                    const void *src, size_t bytes) {
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy) {
    mlxrt_cuda_record(dev, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    return false;
  }
  memcpy(copy, src, bytes);
  if (!mlxrt_cuda_capture_upload(dev, dst, copy, bytes)) {
    free(copy);
    return false;
  }
  dev->graph.uploads[dev->graph.numUploads - 1].owned = copy;
  return true;
}
