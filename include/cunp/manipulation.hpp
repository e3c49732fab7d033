// cunp/manipulation.hpp — array manipulation with NumPy's semantics: axis moves,
// dimension changes, flips, joins, splits, tiling, rolling and padding. Views wherever
// NumPy returns views; the rest are copies made by the copy engine on the arrays'
// device.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cunp/ndarray.hpp"

namespace cunp {

// ---- views
ndarray moveaxis(const ndarray& a, std::span<const int> source, std::span<const int> destination);
ndarray swapaxes(const ndarray& a, int axis1, int axis2);
ndarray rollaxis(const ndarray& a, int axis, int start = 0);
ndarray expand_dims(const ndarray& a, std::span<const int> axis);
ndarray squeeze(const ndarray& a, std::optional<std::vector<int>> axis = std::nullopt);
ndarray atleast_1d(const ndarray& a);
ndarray atleast_2d(const ndarray& a);
ndarray atleast_3d(const ndarray& a);
// Reverses the order of elements along `axis` (all axes when empty).
ndarray flip(const ndarray& m, std::optional<std::vector<int>> axis = std::nullopt);
ndarray fliplr(const ndarray& m);
ndarray flipud(const ndarray& m);
ndarray rot90(const ndarray& m, int k = 1, std::pair<int, int> axes = {0, 1});
// Read-only views of every array broadcast to the common shape.
std::vector<ndarray> broadcast_arrays(std::span<const ndarray> arrays);

// ---- joining (copies on the first array's device; dtypes promote like NumPy's)

// The keyword arguments of NumPy's joins: the result's dtype (`dtype`) or an array that
// receives the result (`out`: its dtype is the result's; TypeError when both are given,
// as NumPy), and the rule each input's cast to that dtype must obey (`casting`:
// TypeError "Cannot cast array data from dtype('float64') to dtype('int32') according
// to the rule 'same_kind'" otherwise).
struct JoinOptions {
  std::optional<DType> dtype;
  std::optional<ndarray> out;
  Casting casting = Casting::SameKind;
};
// np.concatenate; axis nullopt joins the flattened arrays (`out` then must be 1-d of
// the total size).
ndarray concatenate(std::span<const ndarray> arrays, std::optional<int> axis = 0, const JoinOptions& options = {});
// np.stack: the arrays (all of one shape) joined along a new axis.
ndarray stack(std::span<const ndarray> arrays, int axis = 0, const JoinOptions& options = {});
ndarray vstack(std::span<const ndarray> arrays, const JoinOptions& options = {});
ndarray hstack(std::span<const ndarray> arrays, const JoinOptions& options = {});
ndarray dstack(std::span<const ndarray> arrays);
ndarray column_stack(std::span<const ndarray> arrays);
ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis = std::nullopt);

// ---- splitting (views)
// Into `sections` equal parts (ValueError when the axis does not divide evenly).
std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis = 0);
// At the given indices.
std::vector<ndarray> split(const ndarray& a, std::span<const std::int64_t> indices, int axis = 0);
// Into `sections` parts of sizes differing by at most one.
std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis = 0);
std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections);

// ---- repetition and shifts (copies)
ndarray tile(const ndarray& a, std::span<const std::int64_t> reps);
// Each element repeated `repeats` times along `axis` (flattened when absent).
ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis = std::nullopt);
// Element i repeated repeats[i] times (repeats broadcast from length 1).
ndarray repeat(const ndarray& a, std::span<const std::int64_t> repeats, std::optional<int> axis = std::nullopt);
ndarray roll(const ndarray& a, std::span<const std::int64_t> shift, std::optional<std::vector<int>> axis = std::nullopt);
// np.resize: repeats the data cyclically to fill `shape`.
ndarray resize(const ndarray& a, const Shape& shape);

// np.pad with mode "constant" (constant_values), "edge", "reflect", "symmetric",
// "wrap", "linear_ramp" (end_values), "maximum", "mean", "median", "minimum"
// (stat_length) or "empty"; pad_width[i] = {before, after} for axis i.
ndarray pad(const ndarray& a, std::span<const std::pair<std::int64_t, std::int64_t>> pad_width,
            std::string_view mode = "constant", double constant_value = 0.0);

// The per-axis options of np.pad: each list is empty (the default), one pair (every
// axis) or one pair per axis.
struct PadOptions {
  std::vector<std::pair<double, double>> constant_values;  // "constant"; default 0
  std::vector<std::pair<double, double>> end_values;       // "linear_ramp"; default 0
  // "maximum", "mean", "median", "minimum": how many edge values the statistic uses on each
  // side; nullopt (the default) uses the whole axis.
  std::vector<std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> stat_length;
};
ndarray pad(const ndarray& a, std::span<const std::pair<std::int64_t, std::int64_t>> pad_width,
            std::string_view mode, const PadOptions& options);

// np.trim_zeros: strips leading ("f") and/or trailing ("b") zeros along `axis` (every
// axis when nullopt); a view.
ndarray trim_zeros(const ndarray& filt, std::string_view trim = "fb", std::optional<std::vector<int>> axis = std::nullopt);
// np.insert with a scalar `obj`: `values` inserted as one block before `index`.
ndarray insert(const ndarray& arr, std::int64_t index, const ndarray& values, std::optional<int> axis = std::nullopt);
// np.insert with a sequence `obj`: values[i] inserted before indices[i] (stable order).
ndarray insert(const ndarray& arr, std::span<const std::int64_t> indices, const ndarray& values,
               std::optional<int> axis = std::nullopt);
// np.delete (a C++ keyword, hence the underscore): arr without the given positions.
ndarray delete_(const ndarray& arr, std::span<const std::int64_t> indices, std::optional<int> axis = std::nullopt);

}  // namespace cunp
