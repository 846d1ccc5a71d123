//===- HostSimABI.h - contract of the GPU-kernel host simulation -*- C++
//-*-===//
//
// The functions a kernel rewritten by --convert-gpu-to-host-sim calls, and the
// codes it passes them. Both the pass (which emits the calls by name) and the
// runtime (lib/Runtime/HostSim.cpp, which defines them) include this header,
// so a code cannot mean one thing to one side and another to the other.
// Plain C declarations: the runtime links no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NVFP4_RUNTIME_HOSTSIMABI_H
#define NVFP4_RUNTIME_HOSTSIMABI_H

#include <stdint.h>

/// Bumped when a signature or a code below changes meaning.
#define NVFP4SIM_ABI_VERSION 2

/// Special registers (nvvm.read.ptx.sreg.*), the `which` of nvfp4sim_sreg.
enum Nvfp4SimSreg {
  NVFP4SIM_TID_X = 0,
  NVFP4SIM_TID_Y,
  NVFP4SIM_TID_Z,
  NVFP4SIM_NTID_X,
  NVFP4SIM_NTID_Y,
  NVFP4SIM_NTID_Z,
  NVFP4SIM_CTAID_X,
  NVFP4SIM_CTAID_Y,
  NVFP4SIM_CTAID_Z,
  NVFP4SIM_NCTAID_X,
  NVFP4SIM_NCTAID_Y,
  NVFP4SIM_NCTAID_Z,
  NVFP4SIM_LANEID,
  NVFP4SIM_WARPID,
  NVFP4SIM_NWARPID,
  NVFP4SIM_WARPSIZE,
};

/// shfl.sync modes, the `mode` of nvfp4sim_shfl (PTX order).
enum Nvfp4SimShflMode {
  NVFP4SIM_SHFL_UP = 0,
  NVFP4SIM_SHFL_DOWN,
  NVFP4SIM_SHFL_BFLY,
  NVFP4SIM_SHFL_IDX,
};

/// prmt.b32 modes, the `mode` of nvfp4sim_prmt (PTX order).
enum Nvfp4SimPrmtMode {
  NVFP4SIM_PRMT_DEFAULT = 0,
  NVFP4SIM_PRMT_F4E,
  NVFP4SIM_PRMT_B4E,
  NVFP4SIM_PRMT_RC8,
  NVFP4SIM_PRMT_ECL,
  NVFP4SIM_PRMT_ECR,
  NVFP4SIM_PRMT_RC16,
};

/// Source formats of the paired conversions to f16x2.
enum Nvfp4SimCvtType {
  NVFP4SIM_CVT_E4M3 = 0,
  NVFP4SIM_CVT_E5M2,
  NVFP4SIM_CVT_UE8M0,
  NVFP4SIM_CVT_E2M1,
};

#ifdef __cplusplus
extern "C" {
#endif

/// A kernel as the runtime calls it: one call per simulated thread, with the
/// launch's argument block.
typedef void (*Nvfp4SimEntry)(void *args);

/// Runs `entry` for every thread of a grid (CTA after CTA; the threads of a
/// CTA as fibers, so barriers and warp shuffles synchronise exactly).
/// `sharedBytes` of per-CTA shared memory start filled with 0xFF bytes.
/// Errors (a deadlock, a lane missing from a shuffle) are reported on stderr
/// and by nvfp4sim_error; the launch then stops.
void nvfp4sim_launch(Nvfp4SimEntry entry, void *args, int32_t gridX,
                     int32_t gridY, int32_t gridZ, int32_t blockX,
                     int32_t blockY, int32_t blockZ, int64_t sharedBytes);
/// nvfp4sim_launch of a kernel whose CTAs form clusters of `clusterX`
/// consecutive CTAs along x (1 to 8, dividing gridX): the threads of a
/// cluster run together, each CTA with its own shared memory.
void nvfp4sim_launch_cluster(Nvfp4SimEntry entry, void *args, int32_t gridX,
                             int32_t gridY, int32_t gridZ, int32_t blockX,
                             int32_t blockY, int32_t blockZ,
                             int64_t sharedBytes, int32_t clusterX);
/// The first error since the last nvfp4sim_clear_error, or null.
const char *nvfp4sim_error(void);
void nvfp4sim_clear_error(void);
/// Runs ready threads from the highest thread id down instead of up (a kernel
/// that misses a barrier then reads what the other order would not).
void nvfp4sim_set_reverse_order(int32_t reverse);

/// What the warps of the launches traced loaded from one buffer: warp-wide
/// load instructions, and the 128-byte lines and the 32-byte sectors each
/// one touched (summed over them: an L1 miss costs one L2 request a line).
typedef struct Nvfp4SimLoadStats {
  int64_t loads, lines, sectors;
} Nvfp4SimLoadStats;
/// Starts counting the global loads of the following launches into `count`
/// buffers, buffer i the bytes [begins[i], begins[i] + sizes[i]); a warp's
/// load instruction counts for the buffer of its first lane's address, or
/// for none.
void nvfp4sim_trace_begin(int32_t count, const void *const *begins,
                          const int64_t *sizes);
/// Stops counting and writes buffer i's totals to stats[i].
void nvfp4sim_trace_end(Nvfp4SimLoadStats *stats);

// Called by simulated threads.
int32_t nvfp4sim_sreg(int32_t which);
void *nvfp4sim_shared(void);
/// bar.sync / barrier0: returns once every live thread of the CTA arrived.
void nvfp4sim_barrier(void);
/// barrier.cluster.arrive (the release and relaxed forms alike: threads
/// switch only at synchronisation points) and barrier.cluster.wait, which
/// returns once every live thread of the cluster has arrived as often as
/// the caller.
void nvfp4sim_cluster_arrive(void);
void nvfp4sim_cluster_wait(void);
/// A load, store or cp.async of `bytes` at `address` (a power of two): the
/// GPU faults with a misaligned address unless it is a multiple of `bytes`,
/// and so does the launch here.
void nvfp4sim_check_align(const void *address, int32_t bytes);
/// A load of `bytes` at `address` (not in shared memory) by the kernel's
/// load instruction `site`, counted while a trace is on.
void nvfp4sim_trace_load(const void *address, int32_t bytes, int32_t site);
/// cp.async (without zero fill) of `bytes` from `src` to `dst` (both
/// checked as nvfp4sim_check_align does), performed only when a wait lets
/// its group complete: the latest the GPU may perform it, so a read of
/// `dst` before the wait sees the bytes that were there.
void nvfp4sim_cp_async(void *dst, const void *src, int32_t bytes);
/// cp.async.commit_group: the thread's copies since the last commit form a
/// group.
void nvfp4sim_cp_async_commit(void);
/// cp.async.wait_group n: performs the copies of all but the newest `n` of
/// the thread's committed groups.
void nvfp4sim_cp_async_wait(int32_t n);
/// mapa (generic addresses): `address`, in the caller's shared memory, in
/// that of the CTA of rank `rank` in the cluster.
void *nvfp4sim_mapa(void *address, int32_t rank);
/// shfl.sync: the value and, in bit 32, the valid predicate.
int64_t nvfp4sim_shfl(int32_t mode, int32_t mask, int32_t value, int32_t offset,
                      int32_t clamp);
/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32, a warp collective:
/// the lane's A (four f16 pairs), B (two) and C (four f32, as bits)
/// fragments; the lane resumes when every lane of its warp has called it,
/// and reads its four results with nvfp4sim_mma_result(0..3) (f32 bits).
void nvfp4sim_mma_f16(int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                      int32_t b0, int32_t b1, int32_t c0, int32_t c1,
                      int32_t c2, int32_t c3);
/// The same with bf16 pairs (mma.sync...f32.bf16.bf16.f32).
void nvfp4sim_mma_bf16(int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                       int32_t b0, int32_t b1, int32_t c0, int32_t c1,
                       int32_t c2, int32_t c3);
int32_t nvfp4sim_mma_result(int32_t index);
/// Pure instructions.
int32_t nvfp4sim_prmt(int32_t mode, int32_t a, int32_t b, int32_t selector);
int32_t nvfp4sim_dp4a(int32_t a, int32_t b, int32_t c, int32_t aSigned,
                      int32_t bSigned);
int32_t nvfp4sim_dp2a(int32_t a, int32_t b, int32_t c, int32_t aSigned,
                      int32_t bSigned, int32_t hi);
/// cvt.rn[.relu].f16x2.{e4m3x2,e5m2x2,e2m1x2} and cvt.rn.bf16x2.ue8m0x2:
/// `bits` holds the two packed sources (first element in the low bits); the
/// result packs two f16 (bf16 for ue8m0), first element in the low half.
int32_t nvfp4sim_cvt_x2(int32_t type, int32_t bits, int32_t relu);
/// cvt.rn.bf16.f32 of the f32 with bits `f32Bits` (bf16 bits in the low half).
int32_t nvfp4sim_f32_to_bf16(int32_t f32Bits);

#ifdef __cplusplus
}
#endif

#endif // NVFP4_RUNTIME_HOSTSIMABI_H
