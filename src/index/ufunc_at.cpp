// src/index/ufunc_at.cpp — ufunc.at (cunp/indexing.hpp): the index normalized as for
// setitem, then an unbuffered update of every indexed element, sequential in C order
// on the CPU and atomic on CUDA devices (Note [ufunc.at kernels]).
#include <cstring>
#include <string>

#include "cpu/copy.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/ufunc.hpp"
#include "index/index_cuda.hpp"
#include "index/prepared.hpp"
#include "ufunc/execute.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp {
namespace {

// The values operand: b broadcast to the result's shape in the loop's input dtype,
// C-contiguous on a's device.
ndarray prepared_values(const Operand& b, const Shape& shape, DType dtype, Device device) {
  ndarray vals = empty(shape, {.dtype = dtype, .device = device});
  if (!b.is_array()) {
    vals.fill(b.scalar());
    return vals;
  }
  try {
    vals.assign(b.array());
  } catch (const ValueError&) {
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_str(b.array().shape()) + " and requested shape " + shape_str(shape));
  }
  return vals;
}

iter::LoopLayout one_element_layout(int noperands) {
  iter::LoopLayout layout;
  layout.strides.assign(static_cast<std::size_t>(noperands), Strides{});
  layout.size = 1;
  return layout;
}

void cpu_apply(const ufunc::Loop& loop, int nin, const index::Prepared& pr, DType storage, const ndarray* values) {
  const std::vector<std::int64_t> offs = index::host_element_offsets(pr);
  char* base = static_cast<char*>(pr.view.data());
  const char* vals = values != nullptr ? static_cast<const char*>(values->data()) : nullptr;
  const auto vsize = values != nullptr ? static_cast<std::size_t>(values->itemsize()) : 0;
  const iter::LoopLayout one = one_element_layout(1 + nin);
  const iter::LoopLayout cast1 = one_element_layout(2);
  const bool direct = loop.in[0] == storage && loop.out[0] == storage;
  alignas(16) char in0[16];
  alignas(16) char out0[16];
  for (std::size_t i = 0; i < offs.size(); ++i) {
    char* e = base + offs[i];
    char* b = const_cast<char*>(vals + i * vsize);
    if (direct) {
      char* ptrs[3] = {e, e, b};
      loop.cpu(one, ptrs);
      continue;
    }
    // Through the loop's dtypes, one element at a time (unsafe cast back, as NumPy).
    cpu::copy_cast(cast1, in0, loop.in[0], e, storage);
    char* ptrs[3] = {out0, in0, b};
    loop.cpu(one, ptrs);
    cpu::copy_cast(cast1, e, storage, out0, loop.out[0]);
  }
}

std::vector<FancyIndex> index_on(std::span<const FancyIndex> index, Device device) {
  std::vector<FancyIndex> out(index.begin(), index.end());
  for (FancyIndex& f : out)
    if (auto* arr = std::get_if<ndarray>(&f)) *arr = arr->to(device);
  return out;
}

void apply_at(std::string_view name, const ndarray& a, std::span<const FancyIndex> index,
              const std::optional<Operand>& b) {
  const ufunc::Ufunc& uf = ufunc::get(name);
  if (uf.nout != 1) throw ValueError("Only single output ufuncs supported at this time");
  if (uf.nin > 2) throw ValueError("Only unary and binary ufuncs supported at this time");
  if (uf.nin == 2 && !b) throw ValueError("second operand needed for ufunc");
  if (uf.nin == 1 && b) throw ValueError("second operand provided when ufunc is unary");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  std::vector<Operand> inputs{Operand(a)};
  if (b) {
    if (b->is_array() && b->array().device() != a.device())
      throw ValueError("ufunc.at: the operands are on different devices (" + a.device().str() + " and " +
                       b->array().device().str() + ")");
    inputs.push_back(*b);
  }
  const ufunc::Loop& loop = ufunc::resolve_loop(uf, inputs, std::nullopt, Casting::SameKind);
  if (!index::has_array(index)) {
    // A basic index: a view updated elementwise, with no repeated positions.
    const ndarray view = a.view(index::basic_only(index));
    std::vector<Operand> ins{Operand(view)};
    if (b) ins.push_back(*b);
    call_ufunc(name, ins, {.out = {view}, .casting = Casting::Unsafe});
    return;
  }
  const index::Prepared pr = index::prepare(a, index);
  ndarray values;
  if (b) values = prepared_values(*b, pr.out_shape, loop.in[1], a.device());
  const ndarray* vp = b ? &values : nullptr;
  if (!a.device().is_cuda()) {
    cpu_apply(loop, uf.nin, pr, a.dtype(), vp);
    return;
  }
  cuda::DeviceScope scope(a.device().index);
  index::AtKernelSpec spec{.functor = uf.functor_for(loop),
                           .header = uf.header,
                           .nin = uf.nin,
                           .in0 = loop.in[0],
                           .in1 = uf.nin == 2 ? loop.in[1] : loop.in[0],
                           .out = loop.out[0],
                           .storage = a.dtype()};
  spec.atomic = index::at_atomic_kind(spec.functor, spec.nin, spec.in0, spec.in1, spec.out, spec.storage);
  std::vector<std::int64_t> strides(pr.geom.strides.begin(), pr.geom.strides.end());
  strides.insert(strides.end(), pr.ax.strides.begin(), pr.ax.strides.end());
  if (!index::gpu::scatter_apply_supported(spec, pr.view.data(), strides)) {
    // No 16-byte compare-and-swap here: the update runs on a host copy.
    const ndarray host = a.to(Device::cpu(), true);
    std::optional<Operand> hb;
    if (b) hb = b->is_array() ? Operand(b->array().to(Device::cpu())) : *b;
    const std::vector<FancyIndex> hidx = index_on(index, Device::cpu());
    apply_at(name, host, hidx, hb);
    ndarray(a).assign(host);
    return;
  }
  const ndarray off = empty({pr.ax.n}, {.dtype = DType::Int64, .device = a.device()});
  index::gpu::offsets(pr.ax, off, nullptr);
  index::gpu::scatter_apply(spec, pr.view.data(), vp, pr.geom, off);
}

}  // namespace

void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index) {
  apply_at(ufunc, a, index, std::nullopt);
}

void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index, const ndarray& b) {
  apply_at(ufunc, a, index, Operand(b));
}

void ufunc_at(std::string_view ufunc, const ndarray& a, std::span<const FancyIndex> index, const Scalar& b) {
  apply_at(ufunc, a, index, Operand(b));
}

}  // namespace cunp
