// src/ufunc/execute.hpp — running a registered ufunc on operands.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "cunp/ufunc.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::ufunc {

// NumPy's loop selection with NEP 50 (weak Python scalars); dtype= picks the first
// loop producing that dtype, signature= (inputs then outputs, nullopt where free) the
// first loop of those types. TypeError when no loop fits.
const Loop& resolve_loop(const Ufunc& uf, std::span<const Operand> inputs, std::optional<DType> dtype,
                         Casting casting, std::span<const std::optional<DType>> signature = {});

// Checks, broadcasts, allocates or checks outputs, and runs the loop on the operands'
// device. Returns the outputs.
std::vector<ndarray> execute(const Ufunc& uf, std::span<const Operand> inputs, const UfuncOptions& options);

}  // namespace cunp::ufunc
