//===- Tcgen05Problem.h - the reference problem of a tcgen05 plan -*- C++
//-*-===//
//
// The float64 reference's description of the GEMV a tcgen05 plan computes
// (f32 output), for the tools and tests that check a plan against it.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_TCGEN05PROBLEM_H
#define NVFP4_SUPPORT_TCGEN05PROBLEM_H

#include "nvfp4/Support/Reference.h"
#include "nvfp4/Support/Tcgen05Plan.h"

namespace nvfp4::tcgen05 {

inline ref::GemvProblem gemvProblemOf(const plan::GemvPlan &p) {
  ref::GemvProblem problem;
  problem.m = p.m;
  problem.k = p.k;
  problem.l = p.l;
  problem.n = p.vectors;
  problem.format = p.mxfp4 ? ref::ScaleFormat::MXFP4 : ref::ScaleFormat::NVFP4;
  problem.layout =
      p.blocked ? ref::ScaleLayout::Blocked128x4 : ref::ScaleLayout::Linear;
  problem.output = ref::ElementType::F32;
  return problem;
}

} // namespace nvfp4::tcgen05

#endif // NVFP4_SUPPORT_TCGEN05PROBLEM_H
