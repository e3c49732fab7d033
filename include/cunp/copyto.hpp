// cunp/copyto.hpp — np.copyto: copying into an existing array under a casting rule
// and a mask.
#pragma once

#include <optional>

#include "cunp/ufunc.hpp"

namespace cunp {

// np.copyto(dst, src, casting=, where=): src (and where) broadcast to dst's shape; a
// Python-scalar src (weak Scalar) is checked by NEP 50 (OverflowError for an int that
// dst's integer dtype cannot hold); ValueError when dst is read-only.
struct CopytoOptions {
  Casting casting = Casting::SameKind;
  std::optional<ndarray> where;  // bool mask; unset means everywhere
};
void copyto(const ndarray& dst, const Operand& src, const CopytoOptions& options = {});

}  // namespace cunp
