// cunp/sort.hpp — sorting, searching and set operations with NumPy's names: sort,
// argsort, lexsort, partition, argpartition, sort_complex, searchsorted, unique (and
// NumPy 2's unique_values/counts/inverse/all), isin, in1d, intersect1d, union1d,
// setdiff1d, setxor1d.
//
// Orders are NumPy's: NaNs sort to the end, -0.0 and 0.0 compare equal, complex
// numbers sort by real part then imaginary part (NaN parts last). Every sort is
// stable, whatever `kind` names. On CUDA devices the sorts are CUB radix sorts
// (segmented ones for batched axes); on the cpu device std algorithms, threaded for
// large inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// NumPy's `kind=` of sort/argsort: every kind gives the same (stable) result here.
enum class SortKind : std::uint8_t { QuickSort, MergeSort, HeapSort, Stable };
// Parses "quicksort", "mergesort", "heapsort", "stable" (NumPy also takes prefixes
// such as "q", "m", "h", "s"); ValueError otherwise.
SortKind parse_sort_kind(std::string_view text);

struct SortOptions {
  SortKind kind = SortKind::QuickSort;
};

// np.sort: a sorted copy along `axis` (nullopt: of the flattened array).
ndarray sort(const ndarray& a, std::optional<std::int64_t> axis = -1, SortOptions options = {});
// np.argsort: int64 indices that sort `a` along `axis` (nullopt: flattened); stable.
ndarray argsort(const ndarray& a, std::optional<std::int64_t> axis = -1, SortOptions options = {});
// ndarray.sort: sorts `a` in place along `axis` (ValueError for a read-only array).
void sort_inplace(const ndarray& a, std::int64_t axis = -1, SortOptions options = {});

// np.lexsort: indices sorting by keys[last], ties broken by keys[last-1], ...
// All keys have one shape (a 0-d key counts as 1-d); `axis` of that shape.
ndarray lexsort(std::span<const ndarray> keys, std::int64_t axis = -1);

// np.partition / np.argpartition: element kth[i] is where a full sort puts it, smaller
// elements before, larger after (the order inside each part is unspecified; on CUDA
// devices the result is fully sorted). Negative kth count from the end.
ndarray partition(const ndarray& a, const std::vector<std::int64_t>& kth,
                  std::optional<std::int64_t> axis = -1);
ndarray argpartition(const ndarray& a, const std::vector<std::int64_t>& kth,
                     std::optional<std::int64_t> axis = -1);
// ndarray.partition: partitions `a` in place along `axis` (ValueError for a read-only
// array).
void partition_inplace(const ndarray& a, const std::vector<std::int64_t>& kth, std::int64_t axis = -1);

// np.sort_complex: sorted along the last axis, as a complex array (complex64 for
// int8/uint8/int16/uint16/float16/float32 and complex64 inputs, complex128 otherwise).
ndarray sort_complex(const ndarray& a);

// np.searchsorted: int64 insertion points of `v` into the 1-d array `a` (sorted, or
// sorted through `sorter`, a permutation of a's positions: TypeError unless a 1-d
// integer array, ValueError for another length or an index out of range): "left" the
// first suitable position, "right" the last. a and v are compared in their promoted
// dtype.
enum class Side : std::uint8_t { Left, Right };
Side parse_side(std::string_view text);  // "left" / "right" (ValueError otherwise)
ndarray searchsorted(const ndarray& a, const ndarray& v, Side side = Side::Left,
                     const std::optional<ndarray>& sorter = std::nullopt);

// np.unique. `axis` nullopt flattens; an int finds unique slices along that axis.
// equal_nan collapses all NaNs into one (axis nullopt only, as NumPy).
struct UniqueOptions {
  bool return_index = false;
  bool return_inverse = false;
  bool return_counts = false;
  std::optional<std::int64_t> axis;
  bool equal_nan = true;
};
// The fields asked for are defined; the others are undefined arrays. `inverse` has
// the input's shape when axis is nullopt (NumPy 2), else one index per slice.
struct UniqueResult {
  ndarray values;
  ndarray indices;
  ndarray inverse;
  ndarray counts;
};
UniqueResult unique(const ndarray& ar, const UniqueOptions& options = {});
// The Array API forms (NumPy 2): flattened input; NaNs are not collapsed.
ndarray unique_values(const ndarray& x);
UniqueResult unique_counts(const ndarray& x);   // values, counts
UniqueResult unique_inverse(const ndarray& x);  // values, inverse (x's shape)
UniqueResult unique_all(const ndarray& x);      // values, indices, inverse, counts

// np.isin: a bool array of element's shape, true where the element is in
// test_elements (NaN is in nothing).
ndarray isin(const ndarray& element, const ndarray& test_elements, bool assume_unique = false,
             bool invert = false);
// np.in1d (deprecated in NumPy 2): isin of the flattened element.
ndarray in1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false, bool invert = false);

// np.intersect1d: sorted unique values in both arrays (flattened).
ndarray intersect1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// np.intersect1d(..., return_indices=True): values and the first indices in each input.
struct IntersectResult {
  ndarray values;
  ndarray indices1;
  ndarray indices2;
};
IntersectResult intersect1d_indices(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// np.union1d: sorted unique values in either array.
ndarray union1d(const ndarray& ar1, const ndarray& ar2);
// np.setdiff1d: unique values of ar1 not in ar2 (ar1's order when assume_unique).
ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// np.setxor1d: sorted unique values in exactly one of the arrays.
ndarray setxor1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);

}  // namespace cunp
