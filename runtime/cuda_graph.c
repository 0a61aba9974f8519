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
// A program's first run is never captured: it loads the modules and lets
// cuBLASLt pick its algorithms, which do not belong in a graph. Its first
// run on other buffers is (the products' plans are made; one whose
// operands' alignment differs is planned during the capture, host work
// only); if that capture fails, the run is the plain first run instead.
//
// Instantiating a captured graph costs far more than capturing it (about
// 0.2 ms for examples/mlp.mlir on the H200). A graph whose buffers go (freed,
// or its slot taken) is kept as a spare of its program, and the program's
// next capture updates it (cuGraphExecUpdate) instead. A model's warm-up at
// opening captures on its zeros for that: the first call's capture is an
// update.
//
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

/// A hash of how many nodes of each type `graph` has (the driver lists them
/// in no fixed order), 0 if unknown. A capture of another shape (a program
/// whose host code enqueues other work for other buffers: a copy that an
/// in-place output makes unnecessary) is never offered as an update, which the
/// driver would refuse.
static uint64_t graphShape(const mlxrt_cuda_driver *drv, CUgraph graph) {
  size_t count = 0;
  if (drv->graphGetNodes(graph, NULL, &count) != CUDA_SUCCESS)
    return 0;
  CUgraphNode *nodes = malloc((count ? count : 1) * sizeof(*nodes));
  if (!nodes)
    return 0;
  enum { Types = 16 }; // CUgraphNodeType has 14 (CUDA 13); the rest: last.
  uint64_t perType[Types] = {0};
  bool known = drv->graphGetNodes(graph, nodes, &count) == CUDA_SUCCESS;
  for (size_t i = 0; known && i < count; ++i) {
    int type = Types - 1;
    known = drv->graphNodeGetType(nodes[i], &type) == CUDA_SUCCESS;
    ++perType[type >= 0 && type < Types ? type : Types - 1];
  }
  free(nodes);
  uint64_t hash = 1469598103934665603ull; // FNV-1a over the counts
  for (int t = 0; t < Types; ++t)
    hash = (hash ^ perType[t]) * 1099511628211ull;
  return known ? hash : 0;
}

/// Destroys the spare graphs of `entry` (NULL: all of them).
static void destroySpares(mlxrt_cuda_device *dev, mlxrt_entry_fn entry) {
  size_t kept = 0;
  for (size_t i = 0; i < dev->numSpare; ++i) {
    if (!entry || dev->spare[i].entry == entry)
      dev->drv->graphExecDestroy(dev->spare[i].exec);
    else
      dev->spare[kept++] = dev->spare[i];
  }
  dev->numSpare = kept;
}

/// The newest spare graph of `entry` whose graph had shape `shape`, no
/// longer a spare; or NULL.
static CUgraphExec takeSpare(mlxrt_cuda_device *dev, mlxrt_entry_fn entry,
                             uint64_t shape) {
  for (size_t i = dev->numSpare; shape && i-- > 0;) {
    if (dev->spare[i].entry != entry || dev->spare[i].shape != shape)
      continue;
    CUgraphExec exec = dev->spare[i].exec;
    memmove(&dev->spare[i], &dev->spare[i + 1],
            (dev->numSpare - 1 - i) * sizeof(dev->spare[0]));
    --dev->numSpare;
    return exec;
  }
  return NULL;
}

/// Like resetGraph, but an instantiated graph becomes a spare of its
/// program when the driver can update graphs: its buffers are gone, not
/// its program, which may well run again on others.
static void retireGraph(mlxrt_cuda_device *dev, mlxrt_cuda_graph *g) {
  if (g->exec && g->state == MLXRT_GRAPH_READY && dev->drv->graphExecUpdate) {
    mlxrt_cuda_wait_runs(dev, dev->enqueued); // Nothing launches it after.
    if (dev->numSpare == MLXRT_CUDA_SPARE_GRAPHS) {
      dev->drv->graphExecDestroy(dev->spare[0].exec);
      memmove(&dev->spare[0], &dev->spare[1],
              (MLXRT_CUDA_SPARE_GRAPHS - 1) * sizeof(dev->spare[0]));
      --dev->numSpare;
    }
    dev->spare[dev->numSpare++] =
        (mlxrt_cuda_spare_graph){g->entry, g->exec, g->shape};
    g->exec = NULL;
  }
  resetGraph(dev, g);
}

void mlxrt_cuda_graph_reset(mlxrt_cuda_device *dev) {
  resetGraph(dev, &dev->graph);
}

void mlxrt_cuda_graph_reset_all(mlxrt_cuda_device *dev) {
  resetGraph(dev, &dev->graph);
  for (size_t i = 0; i < MLXRT_CUDA_CACHED_GRAPHS; ++i)
    resetGraph(dev, &dev->cached[i]);
  destroySpares(dev, NULL);
}

static bool usesBuffer(const mlxrt_cuda_graph *g, void *view) {
  for (size_t i = 0; i < g->numArgs; ++i)
    if (g->args[i] == view)
      return true;
  return false;
}

void mlxrt_cuda_graph_forget_buffer(mlxrt_cuda_device *dev, void *view) {
  if (usesBuffer(&dev->graph, view))
    retireGraph(dev, &dev->graph);
  for (size_t i = 0; i < MLXRT_CUDA_CACHED_GRAPHS; ++i)
    if (usesBuffer(&dev->cached[i], view))
      retireGraph(dev, &dev->cached[i]);
}

static bool isWarm(const mlxrt_cuda_device *dev, mlxrt_entry_fn entry) {
  for (size_t i = 0; i < dev->numWarm; ++i)
    if (dev->warm[i] == entry)
      return true;
  return false;
}

static void rememberWarm(mlxrt_cuda_device *dev, mlxrt_entry_fn entry) {
  if (isWarm(dev, entry))
    return;
  if (dev->numWarm == MLXRT_CUDA_WARM_PROGRAMS) {
    memmove(&dev->warm[0], &dev->warm[1],
            (MLXRT_CUDA_WARM_PROGRAMS - 1) * sizeof(dev->warm[0]));
    --dev->numWarm;
  }
  dev->warm[dev->numWarm++] = entry;
}

void mlxrt_cuda_graph_forget_program(mlxrt_cuda_device *dev,
                                     mlxrt_entry_fn entry) {
  if (dev->graph.entry == entry)
    resetGraph(dev, &dev->graph);
  for (size_t i = 0; i < MLXRT_CUDA_CACHED_GRAPHS; ++i)
    if (dev->cached[i].entry == entry)
      resetGraph(dev, &dev->cached[i]);
  destroySpares(dev, entry);
  size_t kept = 0;
  for (size_t i = 0; i < dev->numWarm; ++i)
    if (dev->warm[i] != entry)
      dev->warm[kept++] = dev->warm[i];
  dev->numWarm = kept;
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
    retireGraph(dev, &cached[0]);
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
  if (isWarm(dev, entry)) {
    g->state = MLXRT_GRAPH_SEEN;
    g->early = true;
  }
}

/// Ends the capture the program began; instantiates (or updates a spare
/// graph of the program), uploads the constants and launches the graph.
/// Returns false if the capture must be given up (nothing of it ran).
static bool finishCapture(mlxrt_cuda_device *dev) {
  const mlxrt_cuda_driver *drv = dev->drv;
  mlxrt_cuda_graph *g = &dev->graph;
  CUgraph graph = NULL;
  CUresult r = drv->streamEndCapture(dev->stream, &graph);
  g->capturing = false;
  bool ok = !dev->failed && r == CUDA_SUCCESS && graph;
  g->shape = ok && drv->graphExecUpdate ? graphShape(drv, graph) : 0;
  CUgraphExec spare = ok ? takeSpare(dev, g->entry, g->shape) : NULL;
  if (spare) {
    CUgraphExecUpdateResultInfo info;
    if (drv->graphExecUpdate(spare, graph, &info) == CUDA_SUCCESS)
      g->exec = spare;
    else
      drv->graphExecDestroy(spare); // Left in no defined state.
  }
  if (ok && !g->exec)
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
  g->early = false;
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
    // Nothing ran, so run it as is. Give up graphs for this program on
    // these buffers, unless it was an early capture: this run is then the
    // plain first one, and the next captures as usual.
    releaseGraphMemory(dev, g->id);
    clearUploads(g);
    g->state = g->early ? MLXRT_GRAPH_SEEN : MLXRT_GRAPH_UNCAPTURED;
    g->early = false;
    mlxrt_cuda_clear_failure(dev);
    entry(args);
    g->declared = false;
    return;
  }
  g->early = false;
  if (g->state == MLXRT_GRAPH_NONE && !dev->failed) {
    g->state = declared ? MLXRT_GRAPH_SEEN : MLXRT_GRAPH_UNCAPTURED;
    if (declared)
      rememberWarm(dev, entry);
  }
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
