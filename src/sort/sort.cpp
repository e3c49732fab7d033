// src/sort/sort.cpp — the public sorts of cunp/sort.hpp: argument checks with NumPy's
// messages, moving the sorted axis last into C-contiguous rows, and the device
// backends (cpu_sort / gpu_sort). lexsort and sort_complex are composed from them.
#include "cunp/sort.hpp"

#include <algorithm>
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"
#include "sort/cpu_sort.hpp"
#include "sort/gpu_sort.hpp"

namespace cunp {
namespace {

// Note [Sorting rows]: every sort works on rows: a C-contiguous array whose last
// axis is the sorted one (a view of the input when it already is one). The backends
// never write into it; the result's axis is moved back and made C-contiguous, as
// NumPy's sort of a C-contiguous array gives.
struct Rows {
  ndarray rows;
  int axis = 0;       // the sorted axis of the input (0 when flattened)
  bool last = true;   // the axis was already last (or the input was flattened)
};

Rows make_rows(const ndarray& a, std::optional<std::int64_t> axis) {
  if (!axis) return {ascontiguousarray(a.reshape({-1})), 0, true};
  const int ax = normalize_axis(*axis, a.ndim());
  if (ax == a.ndim() - 1) return {ascontiguousarray(a), ax, true};
  const int src[] = {ax};
  const int dst[] = {-1};
  return {ascontiguousarray(moveaxis(a, src, dst)), ax, false};
}

ndarray restore_axis(const ndarray& sorted, const Rows& r) {
  if (r.last) return sorted;
  const int src[] = {-1};
  const int dst[] = {r.axis};
  return moveaxis(sorted, src, dst).copy(Order::C);
}

ndarray sort_rows(const ndarray& rows) {
  if (rows.device().is_cuda()) return rows.size() == 0 ? rows.copy() : sorting::gpu_sort_rows(rows);
  ndarray out = rows.copy(Order::C);
  sorting::cpu_sort_rows(out);
  return out;
}

ndarray argsort_rows(const ndarray& rows) {
  if (rows.device().is_cuda()) {
    if (rows.size() == 0) return empty(rows.shape(), {.dtype = DType::Int64, .device = rows.device()});
    return sorting::gpu_argsort_rows(rows);
  }
  return sorting::cpu_argsort_rows(rows);
}

// NumPy's kth checks: negative values count from the end; the result is sorted.
std::vector<std::int64_t> normalize_kth(const std::vector<std::int64_t>& kth, std::int64_t n) {
  std::vector<std::int64_t> out;
  out.reserve(kth.size());
  for (std::int64_t k : kth) {
    const std::int64_t kk = k < 0 ? k + n : k;
    if (kk < 0 || kk >= n) {
      throw ValueError("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
    }
    out.push_back(kk);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

SortKind parse_sort_kind(std::string_view text) {
  if (!text.empty()) {
    switch (text.front()) {
      case 'q': case 'Q': return SortKind::QuickSort;
      case 'm': case 'M': return SortKind::MergeSort;
      case 'h': case 'H': return SortKind::HeapSort;
      case 's': case 'S': return SortKind::Stable;
      default: break;
    }
  }
  throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + std::string(text) + "')");
}

Side parse_side(std::string_view text) {
  if (text == "left") return Side::Left;
  if (text == "right") return Side::Right;
  // NumPy 2 refuses the abbreviations and other cases it once accepted with its own message.
  if (!text.empty() && std::string_view("lLrR").find(text[0]) != std::string_view::npos)
    throw ValueError("search side must be one of 'left' or 'right'");
  throw ValueError("search side must be 'left' or 'right' (got '" + std::string(text) + "')");
}

ndarray sort(const ndarray& a, std::optional<std::int64_t> axis, SortOptions) {
  const Rows r = make_rows(a, axis);
  return restore_axis(sort_rows(r.rows), r);
}

ndarray argsort(const ndarray& a, std::optional<std::int64_t> axis, SortOptions) {
  // NumPy's argsort of a 0-d array sorts it as a 1-element 1-d array.
  const Rows r = make_rows(a, a.ndim() == 0 ? std::nullopt : axis);
  return restore_axis(argsort_rows(r.rows), r);
}

void sort_inplace(const ndarray& a, std::int64_t axis, SortOptions options) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  ndarray sorted = sort(a, axis, options);
  ndarray dst = a;
  dst.assign(sorted);
}

ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<std::int64_t> axis) {
  const Rows r = make_rows(a, axis);
  const std::int64_t n = r.rows.ndim() == 0 ? 1 : r.rows.shape().back();
  const std::vector<std::int64_t> ks = normalize_kth(kth, n);
  if (r.rows.device().is_cuda()) return restore_axis(sort_rows(r.rows), r);  // Note [Partition by sorting]
  ndarray out = r.rows.copy(Order::C);
  sorting::cpu_partition_rows(out, ks);
  return restore_axis(out, r);
}

void partition_inplace(const ndarray& a, const std::vector<std::int64_t>& kth, std::int64_t axis) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  ndarray dst = a;
  dst.assign(partition(a, kth, axis));
}

ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth, std::optional<std::int64_t> axis) {
  const Rows r = make_rows(a, a.ndim() == 0 ? std::nullopt : axis);
  const std::int64_t n = r.rows.ndim() == 0 ? 1 : r.rows.shape().back();
  const std::vector<std::int64_t> ks = normalize_kth(kth, n);
  // Note [Partition by sorting]: on CUDA devices a radix sort of the rows is a valid
  // partition for every kth and costs a few passes over memory, less than a selection
  // with its host round trips.
  if (r.rows.device().is_cuda()) return restore_axis(argsort_rows(r.rows), r);
  return restore_axis(sorting::cpu_argpartition_rows(r.rows, ks), r);
}

ndarray lexsort(std::span<const ndarray> keys, std::int64_t axis) {
  if (keys.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  for (const ndarray& k : keys) {
    if (k.shape() != keys[0].shape()) throw ValueError("all keys need to be the same shape");
  }
  if (keys[0].ndim() == 0) {
    return zeros({}, {.dtype = DType::Int64, .device = keys[0].device()});
  }
  const int ax = normalize_axis(axis, keys[0].ndim());
  // Least significant key first: each stable pass keeps the order of the earlier ones.
  ndarray perm = argsort(keys[0], ax);
  for (std::size_t j = 1; j < keys.size(); ++j) {
    const ndarray k = take_along_axis(keys[j], perm, ax);
    perm = take_along_axis(perm, argsort(k, ax), ax);
  }
  return perm;
}

ndarray sort_complex(const ndarray& a) {
  ndarray b = sort(a, -1);
  if (is_complex(b.dtype())) return b;
  switch (b.dtype()) {
    case DType::Int8: case DType::UInt8: case DType::Int16: case DType::UInt16:
      return b.astype(DType::Complex64);
    default:
      return b.astype(DType::Complex128);
  }
}

ndarray searchsorted(const ndarray& a, const ndarray& v, Side side, const std::optional<ndarray>& sorter) {
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
  if (v.device() != a.device()) {
    throw ValueError("searchsorted: v is on " + v.device().str() + " but a is on " + a.device().str());
  }
  const DType dt = promote_types(a.dtype(), v.dtype());
  const ndarray av = ascontiguousarray(a, dt);
  const ndarray vv = ascontiguousarray(v, dt);
  std::optional<ndarray> perm;
  if (sorter) {
    // NumPy's checks, in its order: a 1-d array, of integers (not bool), a's length.
    if (sorter->ndim() != 1) throw TypeError("could not parse sorter argument");
    if (!is_integer(sorter->dtype())) throw TypeError("sorter must only contain integers");
    if (sorter->size() != a.size()) throw ValueError("sorter.size must equal a.size");
    if (sorter->device() != a.device()) {
      throw ValueError("searchsorted: sorter is on " + sorter->device().str() + " but a is on " + a.device().str());
    }
    perm = ascontiguousarray(*sorter, DType::Int64);
    // The cpu loop checks as it reads; the GPU kernel trusts its indices, so check
    // them here (one small read back).
    if (a.device().is_cuda() && a.size() > 0 &&
        any(logical_or(less(*perm, 0), greater_equal(*perm, a.size()))).item().to_int64() != 0) {
      throw ValueError("Sorter index out of range.");
    }
  }
  ndarray out = empty(v.shape(), {.dtype = DType::Int64, .device = a.device()});
  if (v.size() == 0) return out;
  if (a.device().is_cuda()) {
    sorting::gpu_searchsorted(av, vv, side, perm, out);
  } else {
    sorting::cpu_searchsorted(av, vv, side, perm, out);
  }
  return out;
}

}  // namespace cunp
