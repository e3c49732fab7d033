// src/sort/set_ops.cpp — unique and the set routines (isin, in1d, intersect1d,
// union1d, setdiff1d, setxor1d), composed from sort/argsort/searchsorted and the
// elementwise, scan and indexing routines exactly as NumPy's arraysetops composes
// them, so they run unchanged on every device. unique reads one count back from the
// device (the size of its result).
#include <string>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/indexing.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/reduce.hpp"
#include "cunp/sort.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

ndarray head(const ndarray& a) { return a.view({Index{slice(1)}}); }  // a[1:]
ndarray tail(const ndarray& a) { return a.view({Index{slice(std::nullopt, -1)}}); }  // a[:-1]
ndarray flat(const ndarray& a) { return a.reshape({-1}); }

ndarray masked(const ndarray& a, const ndarray& mask) {
  const FancyIndex index[] = {mask};
  return getitem(a, index);
}

ndarray concat2(const ndarray& a, const ndarray& b) {
  const ndarray parts[] = {a, b};
  return concatenate(parts, 0);
}

ndarray int64_empty(const Shape& shape, Device device) {
  return empty(shape, {.dtype = DType::Int64, .device = device});
}

// The group starts of sorted data: mask[0] = true, mask[i] = sorted[i] != sorted[i-1]
// (for 2-d rows: any element differs). NaNs are one group with equal_nan. Written in
// place into one bool array (one pass, no concatenation).
ndarray group_starts(const ndarray& sorted, bool equal_nan, bool rows) {
  const std::int64_t n = sorted.shape()[0];
  ndarray mask = empty({n}, {.dtype = DType::Bool, .device = sorted.device()});
  ndarray first = mask.view({Index{slice(0, 1)}});
  first.fill(Scalar(true));
  if (n < 2) return mask;
  const ndarray h = head(sorted), t = tail(sorted);
  ndarray rest = mask.view({Index{slice(1)}});
  if (rows) {
    rest.assign(any(not_equal(h, t), {.axis = 1}));
  } else if (equal_nan && is_inexact(sorted.dtype())) {
    rest.assign(logical_and(not_equal(h, t), logical_not(logical_and(isnan(h), isnan(t)))));
  } else {
    not_equal(h, t, {.out = {rest}});
  }
  return mask;
}

// The outputs of unique from the sorted data (1-d values or 2-d rows), its group
// starts and the permutation that sorted it.
UniqueResult finish_unique(const ndarray& sorted, const ndarray& perm, const ndarray& mask,
                           const UniqueOptions& o) {
  const std::int64_t n = sorted.shape()[0];
  const ndarray starts = flatnonzero(mask);
  UniqueResult r;
  r.values = take(sorted, starts, 0);
  if (o.return_index) r.indices = take(perm, starts, 0);
  if (o.return_inverse) {
    const ndarray group = subtract(cumsum(mask, {.axis = 0, .dtype = DType::Int64}), 1);
    r.inverse = int64_empty({n}, sorted.device());
    const FancyIndex index[] = {perm};
    setitem(r.inverse, index, group);
  }
  if (o.return_counts) {
    r.counts = diff(starts, {.append = full({1}, Scalar(n), {.dtype = DType::Int64, .device = sorted.device()})});
  }
  return r;
}

UniqueResult unique_flat(const ndarray& ar, const UniqueOptions& o) {
  const ndarray a = flat(ar);
  const std::int64_t n = a.size();
  const Device dev = a.device();
  UniqueResult r;
  if (n == 0) {
    r.values = a.copy();
    if (o.return_index) r.indices = int64_empty({0}, dev);
    if (o.return_inverse) r.inverse = int64_empty(ar.shape(), dev);
    if (o.return_counts) r.counts = int64_empty({0}, dev);
    return r;
  }
  const bool need_perm = o.return_index || o.return_inverse;
  ndarray perm, sorted;
  if (need_perm) {
    perm = argsort(a, 0, {.kind = SortKind::Stable});
    sorted = take(a, perm, 0);
  } else {
    sorted = sort(a, 0);
  }
  r = finish_unique(sorted, perm, group_starts(sorted, o.equal_nan, false), o);
  if (o.return_inverse) r.inverse = r.inverse.reshape(ar.shape());
  return r;
}

UniqueResult unique_axis(const ndarray& ar, int axis, const UniqueOptions& o) {
  const int src[] = {axis};
  const int dst[] = {0};
  const ndarray moved = ascontiguousarray(moveaxis(ar, src, dst));
  const std::int64_t n = moved.shape()[0];
  Shape rest(moved.shape().begin() + 1, moved.shape().end());
  const std::int64_t width = shape_size(rest);
  const ndarray rows = moved.reshape({n, width});
  const Device dev = ar.device();
  // Rows in lexicographic order: stable sorts by the last column first.
  ndarray perm = arange(Scalar(n), {.dtype = DType::Int64, .device = dev});
  if (n > 0) {
    for (std::int64_t j = width - 1; j >= 0; --j) {
      const ndarray column = take(rows.view({Index{slice()}, Index{j}}), perm, 0);
      perm = take(perm, argsort(column, 0, {.kind = SortKind::Stable}), 0);
    }
  }
  UniqueResult r;
  if (n == 0) {
    r.values = moved.copy();
    if (o.return_index) r.indices = int64_empty({0}, dev);
    if (o.return_inverse) r.inverse = int64_empty({0}, dev);
    if (o.return_counts) r.counts = int64_empty({0}, dev);
  } else {
    const ndarray sorted = take(rows, perm, 0);
    r = finish_unique(sorted, perm, group_starts(sorted, o.equal_nan, true), o);
  }
  Shape shape = rest;
  shape.insert(shape.begin(), r.values.shape()[0]);
  const int back_src[] = {0};
  const int back_dst[] = {axis};
  r.values = moveaxis(r.values.reshape(shape), back_src, back_dst);
  return r;
}

}  // namespace

UniqueResult unique(const ndarray& ar, const UniqueOptions& options) {
  if (!options.axis) return unique_flat(ar, options);
  return unique_axis(ar, normalize_axis(*options.axis, ar.ndim()), options);
}

ndarray unique_values(const ndarray& x) { return unique(x, {.equal_nan = false}).values; }

UniqueResult unique_counts(const ndarray& x) { return unique(x, {.return_counts = true, .equal_nan = false}); }

UniqueResult unique_inverse(const ndarray& x) { return unique(x, {.return_inverse = true, .equal_nan = false}); }

UniqueResult unique_all(const ndarray& x) {
  return unique(x, {.return_index = true, .return_inverse = true, .return_counts = true, .equal_nan = false});
}

ndarray isin(const ndarray& element, const ndarray& test_elements, bool assume_unique, bool invert) {
  (void)assume_unique;  // sorting the test elements is needed either way
  const Device dev = element.device();
  if (test_elements.device() != dev) {
    throw ValueError("isin: test_elements is on " + test_elements.device().str() + " but element is on " +
                     dev.str());
  }
  const ndarray t = sort(flat(test_elements), 0);
  const std::int64_t n = t.size();
  if (n == 0) return full(element.shape(), Scalar(invert), {.dtype = DType::Bool, .device = dev});
  // The first position not below each element; it holds an equal value when present
  // (`equal` keeps NaN out of every set, as NumPy does).
  const ndarray pos = minimum(searchsorted(t, element, Side::Left), n - 1);
  const ndarray found = equal(take(t, pos, 0), element);
  return invert ? logical_not(found) : found;
}

ndarray in1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique, bool invert) {
  return isin(flat(ar1), ar2, assume_unique, invert);
}

IntersectResult intersect1d_indices(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  ndarray a1 = flat(ar1), a2 = flat(ar2), ind1, ind2;
  if (!assume_unique) {
    const UniqueResult u1 = unique(a1, {.return_index = true});
    const UniqueResult u2 = unique(a2, {.return_index = true});
    a1 = u1.values;
    ind1 = u1.indices;
    a2 = u2.values;
    ind2 = u2.indices;
  }
  const ndarray aux = concat2(a1, a2);
  const ndarray order = argsort(aux, 0, {.kind = SortKind::Stable});
  const ndarray sorted = take(aux, order, 0);
  IntersectResult r;
  if (aux.size() == 0) {
    r.values = sorted;
    r.indices1 = int64_empty({0}, aux.device());
    r.indices2 = int64_empty({0}, aux.device());
    return r;
  }
  const ndarray mask = equal(head(sorted), tail(sorted));
  r.values = masked(tail(sorted), mask);
  r.indices1 = masked(tail(order), mask);
  r.indices2 = subtract(masked(head(order), mask), a1.size());
  if (!assume_unique) {
    r.indices1 = take(ind1, r.indices1, 0);
    r.indices2 = take(ind2, r.indices2, 0);
  }
  return r;
}

namespace {
// The values of both arrays (each made unique unless `assume_unique`), sorted together:
// what intersect1d and setxor1d compare neighbours of.
ndarray sorted_pair(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  ndarray a1 = flat(ar1), a2 = flat(ar2);
  if (!assume_unique) {
    a1 = unique(a1).values;
    a2 = unique(a2).values;
  }
  return sort(concat2(a1, a2), 0);
}
}  // namespace

ndarray intersect1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  const ndarray aux = sorted_pair(ar1, ar2, assume_unique);
  if (aux.size() == 0) return aux;
  return masked(tail(aux), equal(head(aux), tail(aux)));
}

ndarray union1d(const ndarray& ar1, const ndarray& ar2) {
  return unique(concat2(flat(ar1), flat(ar2))).values;
}

ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  ndarray a1 = flat(ar1), a2 = ar2;
  if (!assume_unique) {
    a1 = unique(a1).values;
    a2 = unique(a2).values;
  }
  return masked(a1, isin(a1, a2, true, true));
}

ndarray setxor1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique) {
  const ndarray aux = sorted_pair(ar1, ar2, assume_unique);
  if (aux.size() == 0) return aux;
  const Device dev = aux.device();
  const ndarray edge = ones({1}, {.dtype = DType::Bool, .device = dev});
  const ndarray parts[] = {edge, not_equal(head(aux), tail(aux)), edge};
  const ndarray flag = concatenate(parts, 0);
  return masked(aux, logical_and(head(flag), tail(flag)));
}

}  // namespace cunp
