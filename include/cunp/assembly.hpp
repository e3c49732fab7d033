// cunp/assembly.hpp — arrays assembled from pieces or written in patterns: np.block,
// np.meshgrid, np.diagflat and np.fill_diagonal.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <variant>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// The nested lists of np.block: an array, or a list of nested lists, e.g.
// `cunp::block({{a, b}, {c, d}})`.
class BlockList {
 public:
  BlockList(const ndarray& a) : value_(a) {}  // NOLINT(google-explicit-constructor)
  BlockList(std::initializer_list<BlockList> items) : value_(std::vector<BlockList>(items)) {}
  explicit BlockList(std::vector<BlockList> items) : value_(std::move(items)) {}

  bool is_array() const noexcept { return std::holds_alternative<ndarray>(value_); }
  const ndarray& array() const { return std::get<ndarray>(value_); }
  const std::vector<BlockList>& items() const { return std::get<std::vector<BlockList>>(value_); }

 private:
  std::variant<ndarray, std::vector<BlockList>> value_;
};
// np.block: the innermost lists join along the last axis, each level out along the
// axis before; arrays of fewer dimensions gain leading ones. ValueError for an empty
// list or lists of mismatched depths (NumPy's messages, naming arrays[i][j]).
ndarray block(const BlockList& arrays);

enum class MeshIndexing : std::uint8_t { XY, IJ };
struct MeshgridOptions {
  bool copy = true;     // false: read-only broadcast views
  bool sparse = false;  // true: the broadcastable shapes only
  MeshIndexing indexing = MeshIndexing::XY;
};
// np.meshgrid: coordinate arrays from coordinate vectors (each flattened); 'xy'
// (Cartesian) swaps the first two axes of the result relative to 'ij'.
std::vector<ndarray> meshgrid(std::span<const ndarray> xi, const MeshgridOptions& options = {});

// np.diagflat: the flattened input on the k-th diagonal of a 2-d array.
ndarray diagflat(const ndarray& v, std::int64_t k = 0);
// np.fill_diagonal: writes `val` (repeated cyclically) on the main diagonal of `a` in
// place; a tall 2-d array restarts the diagonal after N + 1 rows when `wrap`. a must be
// at least 2-d, and for more than 2 dimensions all of equal length (ValueError).
void fill_diagonal(const ndarray& a, const ndarray& val, bool wrap = false);
void fill_diagonal(const ndarray& a, const Scalar& val, bool wrap = false);

}  // namespace cunp
