//===- GemvKernelBuilder.h - the CUDA-core GEMV's builder -------*- C++ -*-===//
//
// The state and steps of one CUDA-core GEMV kernel body (the design is in
// GemvKernel.cpp's header): GemvKernel.cpp holds the loads, the K loop and
// the kernel's outline, GemvKernelStages.cpp the shared-memory stages of
// async-copy-stages and tma, GemvKernelReduce.cpp the reduction of the sums
// across lanes, slices and CTAs and their stores.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNELBUILDER_H
#define NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNELBUILDER_H

#include "GemvKernel.h"
#include "UnitDot.h"

#include "nvfp4/Conversion/Common/IndexValue.h"

namespace mlir::nvfp4 {

/// Builds the body of one CUDA-core GEMV kernel: the members hold what the
/// kernel's outline sets up (its arguments, shared buffers, thread roles),
/// the methods emit its parts.
struct GemvKernelBuilder {
  GemvKernelBuilder(OpBuilder &b, Location loc, GemvOp op,
                    const KernelConfig &cfg)
      : b(b), loc(loc), op(op), cfg(cfg) {}

  OpBuilder &b;
  Location loc;
  GemvOp op;
  const KernelConfig &cfg;
  Value a, sfa, vec, sfb, c, alpha;
  Value batch, lane, slice;
  Value sliceChunk; // first chunk of this thread's K slice
  Value rowBlock;   // this CTA's row block
  Value ctaSlice;   // this CTA's K slice (cta-split-k > 1)
  Value workspace;  // [cta-split-k, L, M] f32 partials (cta-split-k > 1)
  Value counters;   // [L, row blocks] i32 arrivals (cta-split-k > 1)
  Value lastFlag;   // workgroup i32: this CTA finishes its row block
  /// Workgroup [cta-split-k, rows-per-block * N] f32: every CTA's partials,
  /// read in the cluster's first CTA (cta-reduction=cluster).
  Value clusterPartials;
  SmallVector<Value> rowIds; // this thread's rows, possibly past M
  Value partials;      // workgroup buffer [split-k, rows-per-block] when split
  Value preparedVec;   // workgroup buffer of b prepared for dp4a, if shared
  Value stages;        // workgroup buffer of a's async copies, if any
  Value tmaMap;        // tensor map of a (tma)
  Value barriers;      // full, then empty mbarriers of the stages (tma)
  Value rowInBlock;    // this thread's first row in the CTA's row block
  Value threadId;      // thread index in the CTA (x)
  DecodeTables tables; // the decode's lookup words, made at the start
  SmallVector<Value> rows; // clamped row indices, one per rows-per-thread

  int64_t rowBytes() { return op.getA().getType().getDimSize(2); }
  /// N, and whether b is packed e2m1 (else 16-bit values, no scales).
  int64_t vectors() { return op.getNumVectors(); }
  bool packedVector() { return op.hasPackedB(); }
  /// i32 words one load of a (or of packed b) brings.
  int64_t wordsPerLoad() { return cfg.bytesPerLoad / 4; }
  /// Bytes of one load of 16-bit b: the values of one word of a.
  static constexpr int64_t kWideVectorLoadBytes = 16;
  /// i32 words of b a step loads per vector: 16-bit values take four
  /// times the bytes of e2m1 codes.
  int64_t vectorStepWords() {
    return packedVector() ? wordsPerLoad()
                          : wordsPerLoad() * kWideVectorLoadBytes / 4;
  }
  /// Indices of b's element `element` of vector `v`.
  SmallVector<Value> vectorIndices(int64_t v, Value element);
  /// Indices of c's element of vector `v`, row `row`.
  SmallVector<Value> outputIndices(int64_t v, Value row);
  int64_t numRows() { return op.getA().getType().getDimSize(1); }
  int64_t chunks() { return rowBytes() / cfg.bytesPerLoad; }
  ScaleFormat format() { return op.getFormat(); }

  /// Scale column of the 8-byte unit at byte `kByte` of a row.
  Value unitColumn(Value kByte) {
    return IV(b, loc, kByte) * 2 / getBlockSize(format());
  }

  /// Two NVFP4 scales of one 16-byte load are adjacent in both layouts (the
  /// column is even, and a 4-column group of the blocked layout holds both):
  /// they can be loaded as one 16-bit word and converted together.
  bool pairedScales() { return chunkScalesAdjacent(op, cfg.bytesPerLoad); }

  /// The two f32 values of two adjacent e4m3 scales (`bytes`: vector<2xi8>,
  /// element 0 first). cvt.rn.f16x2.e4m3x2 (sm_89 and later) is exact, NaN
  /// included.
  SmallVector<Value> decodeScalePair(Value bytes, Type f8);

  /// The undecoded scales of every unit of the load at byte `kByte` of
  /// `row` (row 0 for the vector's scales): one pair of f8 when paired,
  /// else one i8 a unit. Kept apart from the decode so that a loop can
  /// carry them a step ahead.
  SmallVector<Value> loadUnitScaleBits(Value scales, bool isVector, Value row,
                                       Value kByte);

  /// f32 scales of every unit from loadUnitScaleBits' values.
  SmallVector<Value> decodeUnitScales(ArrayRef<Value> bits);

  /// With interleaved rows the four rows' scales of this load sit in one
  /// 16-byte line of a blocked atom (row i in word i, column c in byte c % 4
  /// of each word): one load instead of four, each of which would touch a
  /// different atom per group of lanes.
  Value loadInterleavedScaleLine(Value kByte);

  /// Every row's f32 scales from the line of loadInterleavedScaleLine.
  SmallVector<SmallVector<Value>> decodeInterleavedScales(Value bytes,
                                                          Value kByte);

  /// Word offset in the prepared vector of unit `unit` of chunk `chunk`:
  /// units are stored in planes (unit 0 of every chunk, then unit 1), so
  /// the lanes of a warp, at consecutive chunks, read consecutive 16 bytes
  /// (no bank conflict).
  Value preparedOffset(Value chunk, int64_t unit) {
    return (IV(b, loc, chunk) + unit * chunks()) * kPreparedWordsPerUnit;
  }

  /// Decodes the whole vector b of this batch once per CTA into shared
  /// memory, so the K loop only loads the prepared words instead of redoing
  /// the decode in every row group. Each thread takes a fixed number of
  /// chunks (clamped to the last one: a repeated chunk stores the same
  /// words again) and issues all their loads before decoding any, so the
  /// prologue costs one load latency.
  void buildSharedVectorPrologue();

  /// The prepared words of unit `unit` of the load at byte `kByte`.
  SmallVector<Value> loadPreparedUnit(Value kByte, int64_t unit);

  /// Byte offset in a row of this lane's load at step `step` of its slice;
  /// with `clamp`, a chunk past the row's end becomes the last one (valid
  /// memory whose contribution the caller discards).
  Value stepByte(Value step, bool clamp = false);

  /// Issues the loads of a for steps [first, first + count): for each step,
  /// each row, bytes-per-load / 4 words, flattened in that order.
  SmallVector<Value> loadSteps(Value first, int64_t count, bool clamp = false);

  /// The global loads of one step besides a, undecoded: each vector's words
  /// of b (unless b is prepared in shared memory), then each vector's scale
  /// bits (packed b), then a's (one line, or each row's bits).
  SmallVector<Value> loadStepOperands(Value kByte);

  /// acc[r * N + v] += one step's contribution of row r and vector v: the
  /// words of a (each row's bytes-per-load / 4) and the operands of
  /// loadStepOperands(kByte).
  SmallVector<Value> computeStep(Value kByte, ArrayRef<Value> operands,
                                 ArrayRef<Value> aWords, ArrayRef<Value> acc);

  /// pin-loads: `target` (an i32 word the decode reads first) made to
  /// depend on every other value of `loaded` (one per load) through byte
  /// permutes that return `target` itself, so that ptxas must issue those
  /// loads before the decode.
  Value pinToLoads(Value target, ArrayRef<Value> loaded);

  /// The sums plus the contribution of steps [first, first + count) of K,
  /// whose words of a were loaded by loadSteps.
  SmallVector<Value> computeSteps(Value first, int64_t count,
                                  ArrayRef<Value> aWords, ArrayRef<Value> acc,
                                  bool clamp = false);

  /// Steps [0, groups * group) of this thread's slice, `groups` a dynamic
  /// count. With prefetching, the loop carries the words of the next group,
  /// loaded before the current group's decode, so a thread's loads stay in
  /// flight while it computes.
  SmallVector<Value> buildGroupLoop(Value groups, int64_t group,
                                    ArrayRef<Value> acc,
                                    ArrayRef<Value> firstWords);

  /// Offset in `stages` of this thread's copy of row `r` in stage `slot`:
  /// the threads of a CTA fill consecutive 16 (or 8) bytes, so neither the
  /// copies nor the reads conflict on a bank.
  Value stageOffset(Value slot, int64_t r);

  /// Copies step `step` of this thread's rows into stage step % stages and
  /// closes the copies in one group. Steps past the slice's whole steps
  /// copy clamped, valid chunks that nobody reads.
  Value issueStageCopies(Value step);

  /// Appends the i32 words of a loaded chunk (a vector of bytes-per-load
  /// bytes, of any element type).
  void appendWords(Value chunk, SmallVectorImpl<Value> &words);

  /// The words of a of stage `slot`, for computeSteps.
  SmallVector<Value> readStage(Value slot);

  /// Whole steps [0, full) through async-copy-stages stages of shared
  /// memory: stages - 1 steps are in flight while one is decoded, and the
  /// bytes in flight hold no registers. Each thread reads only what it
  /// copied, so waiting for its own copy groups is the only synchronisation.
  SmallVector<Value> buildAsyncStepLoop(Value full, ArrayRef<Value> acc);

  /// First chunk of K slice `q` of this CTA.
  Value ctaSliceChunk(int64_t q, int64_t sliceChunks);

  /// Copies step `step` of every K slice of the CTA's rows, a box of
  /// rows-per-block x lanes-per-row chunks each, into stage step % stages;
  /// the stage's full barrier expects all their bytes. Boxes past the row's
  /// end or M are filled with zeros by the copy, and chunks past a slice
  /// belong to the next one: both are read by nobody.
  void issueTmaStage(Value step, int64_t sliceChunks);

  /// The words of this thread's rows in stage `slot` of the tma boxes.
  SmallVector<Value> readTmaStage(Value slot);

  /// The i1 parity of use `step / stages` of a stage's barrier, minus
  /// `before` uses.
  Value useParity(Value step, int64_t before = 0);

  /// Waits for the phase `parity` of mbarrier `index`.
  void waitBarrier(Value index, Value parity);

  /// The barrier that says stage `slot` is free again (after the full ones).
  Value emptyBarrier(Value slot);

  /// The producer warp's first thread: fills every stage, then refills
  /// each as soon as all consumer warps have released it.
  void buildTmaProducer(int64_t steps, int64_t sliceChunks);

  /// Whole steps [0, full) with a's stages filled by tensor-memory-
  /// accelerator copies. A producer warp past the consumer threads issues
  /// the copies; each consumer waits on a stage's full barrier (phase
  /// parity: which use of the stage), decodes it and, once its warp is
  /// done, releases the stage through the stage's empty barrier, so no
  /// consumer waits for another. b's words and the scales of the next step
  /// are loaded before the wait: they are in flight while this step
  /// decodes. All consumers walk the longest slice's steps (every warp
  /// releases every stage); a shorter slice's threads skip the decode of
  /// steps past their own. Returns the consumers' sums (zeros in the
  /// producer warp, which goes on to the CTA barriers after the loop but
  /// stores nothing).
  SmallVector<Value> buildTmaStepLoop(Value full, ArrayRef<Value> acc,
                                      int64_t sliceChunks, bool equalSlices);

  /// Single steps [lo, hi) of this thread's slice.
  SmallVector<Value> buildSingleSteps(Value lo, Value hi, ArrayRef<Value> acc);

  /// `updated` where `valid` holds, else `acc` (a partial step's lanes past
  /// their slice keep their sums).
  SmallVector<Value> keepWhere(Value valid, ArrayRef<Value> updated,
                               ArrayRef<Value> acc);

  /// The whole slice (`sliceChunks` chunks, the partial last step
  /// included; the shortest slice of the row has `shortestSlice`) in one
  /// pass: every step's loads of a first (clamped to the row, so valid
  /// memory), then each step's decode, kept only by the lanes whose chunk
  /// lies in the slice. `firstWords`, when given, are those loads.
  SmallVector<Value> buildOnePass(Value sliceChunks, int64_t shortestSlice,
                                  ArrayRef<Value> acc,
                                  ArrayRef<Value> firstWords);
  /// The slice's last, partial step (`tail` lanes of it hold chunks of the
  /// row): the others load the row's last chunk and keep their sums.
  SmallVector<Value> buildTailStep(Value step, Value tail, ArrayRef<Value> acc);

  /// The kernel body, at the builder's insertion point.
  void build();

  /// Slot in the split-k partials of sum `i` (row i / N, vector i % N) of
  /// this thread.
  Value partialSlot(int64_t i);

  /// Butterfly reduction inside each group of lanes: every lane ends with
  /// the group's sum.
  void reduceLanes(MutableArrayRef<Value> values);

  /// Stores alpha * acc[r * N + v] into c for every row r of this thread
  /// below M and every vector v, where `store` holds.
  void storeResults(Value store, ArrayRef<Value> acc);

  /// cta-split-k: the leaders write this CTA's partial sums to the
  /// workspace; the last CTA of the row block to count itself in reads all
  /// of them back in slice order, finishes the rows and resets the counter
  /// for the next launch.
  void buildCtaReduction(Value isLeader, ArrayRef<Value> acc);
  /// cta-split-k as a cluster: the leaders write this CTA's partial sums
  /// into the first CTA's clusterPartials; after the cluster barrier the
  /// first CTA adds them in slice order and finishes the rows.
  void buildClusterReduction(Value isLeader, ArrayRef<Value> acc);
  /// The sums of this thread's rows over the cta-split-k partials that
  /// `partialOf(k, i)` loads (slice k, sum i): lane j adds slices j,
  /// j + lanes-per-row, ... in order, then the lanes combine by butterfly.
  SmallVector<Value>
  sumCtaPartials(function_ref<Value(Value k, int64_t i)> partialOf);

  /// Indices of the workspace's partial of CTA slice `slice`, vector `v`,
  /// row `row`: [cta-split-k, L, M], or [cta-split-k, L, N, M] with a
  /// vector dimension.
  SmallVector<Value> workspaceIndices(Value slice, int64_t v, Value row);
};

} // namespace mlir::nvfp4

#endif // NVFP4_LIB_CONVERSION_NVFP4TOGPU_GEMVKERNELBUILDER_H
