// src/fft/plan_key.hpp — what identifies an FFT plan: the transform kind, precision,
// direction, sizes, batch and the memory layouts of input and output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cunp::fft::detail {

enum class Kind : std::uint8_t { C2C, R2C, C2R };

// Note [FFT layout]: both backends take cuFFT's "advanced data layout", the most
// general layout cuFFT accepts: element (b, i0, .., ik) of a batch of rank-k transforms
// lives at b*dist + ((i0*embed[1] + i1)*embed[2] + ..)*stride, all in elements. A view
// whose transformed axes have been moved last fits it when its batch axes coalesce
// into one positive stride and the transformed strides nest (layout.cpp decides);
// anything else is first copied into a contiguous buffer. FFTW could take any strides
// (its guru interface), but going through the same description on the cpu device
// tests the layout logic that the GPU path relies on.
struct Layout {
  std::int64_t stride = 1;           // of the innermost transformed axis
  std::int64_t dist = 1;             // between consecutive batch entries
  std::vector<std::int64_t> embed;   // embed[0] is unused (set to n[0])
  friend bool operator==(const Layout&, const Layout&) = default;
};

struct PlanKey {
  Kind kind = Kind::C2C;
  bool double_precision = false;
  bool forward = true;
  std::vector<std::int64_t> n;  // logical sizes (the real lengths for R2C/C2R)
  std::int64_t batch = 1;
  Layout in, out;
  bool in_place = false;
  // FFTW only: its alignment classes of the two pointers (plans are reused only on
  // arrays of the same alignment); 0 for cuFFT.
  int in_alignment = 0, out_alignment = 0;
  friend bool operator==(const PlanKey&, const PlanKey&) = default;

  std::size_t hash() const noexcept;
  std::string str() const;  // "C2C f32 fwd n=(8, 4) batch=3 in=... out=..."
};

struct PlanKeyHash {
  std::size_t operator()(const PlanKey& k) const noexcept { return k.hash(); }
};

}  // namespace cunp::fft::detail
