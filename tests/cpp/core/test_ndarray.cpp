// tests/cpp/core/test_ndarray.cpp — the C++ array surface on the cpu device: creation
// with option structs, attributes, views, basic indexing, reshape view-or-copy, copies,
// astype, fill/item/to_vector, set_item, repr. Expected values come from NumPy 2.4.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cunp/cunp.hpp"

namespace cunp {
namespace {

class CoreNdarray : public ::testing::Test {
 protected:
  DeviceGuard guard_{Device::cpu()};
};

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "<no exception>";
}

ndarray iota(std::int64_t n, DType dt = DType::Int64) {
  return arange(Scalar(0), Scalar(n), Scalar(1), {.dtype = dt});
}

TEST_F(CoreNdarray, CreationWithOptions) {
  const ndarray a = zeros({2, 3}, {.dtype = DType::Float32});
  EXPECT_EQ(a.shape(), (Shape{2, 3}));
  EXPECT_EQ(a.strides(), (Strides{12, 4}));
  EXPECT_EQ(a.dtype(), DType::Float32);
  EXPECT_EQ(a.ndim(), 2);
  EXPECT_EQ(a.size(), 6);
  EXPECT_EQ(a.itemsize(), 4);
  EXPECT_EQ(a.nbytes(), 24);
  EXPECT_TRUE(a.device() == Device::cpu());
  EXPECT_TRUE(a.is_c_contiguous());
  EXPECT_FALSE(a.is_f_contiguous());
  EXPECT_TRUE(a.owndata());
  EXPECT_TRUE(a.flags().writeable);
  EXPECT_EQ(a.to_vector<float>(), std::vector<float>(6, 0.0f));

  const ndarray f = ones({2, 3}, {.dtype = DType::Int16, .order = Order::F});
  EXPECT_EQ(f.strides(), (Strides{2, 4}));
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(f.is_c_contiguous());
  EXPECT_EQ(f.to_vector<std::int16_t>(), std::vector<std::int16_t>(6, 1));

  EXPECT_EQ(empty({4}).dtype(), DType::Float64);
  EXPECT_EQ(full({3}, Scalar(2.5)).dtype(), DType::Float64);
  EXPECT_EQ(full({3}, Scalar(2)).dtype(), DType::Int64);
  EXPECT_EQ(full({3}, Scalar(true)).dtype(), DType::Bool);
  EXPECT_EQ(full({2}, Scalar(-1.5), {.dtype = DType::Int32}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{-1, -1}));
  EXPECT_THROW(full({2}, Scalar(300), {.dtype = DType::Int8}), OverflowError);
  EXPECT_EQ(error_of([] { full({2}, Scalar(300), {.dtype = DType::Int8}); }),
            "Python integer 300 out of bounds for int8");
  EXPECT_THROW(zeros({2, -1}), ValueError);
  EXPECT_THROW(empty({2}, {.order = Order::K}), ValueError);

  const ndarray z0 = zeros({});
  EXPECT_EQ(z0.ndim(), 0);
  EXPECT_EQ(z0.size(), 1);
  const ndarray e = zeros({2, 0, 3});
  EXPECT_EQ(e.size(), 0);
  EXPECT_TRUE(e.is_c_contiguous());
  EXPECT_TRUE(e.is_f_contiguous());  // NumPy: an empty array is both
}

TEST_F(CoreNdarray, FromHostAndToVector) {
  const ndarray a = asarray<double>({1.0, -2.5, 3.0});
  EXPECT_EQ(a.dtype(), DType::Float64);
  EXPECT_EQ(a.shape(), (Shape{3}));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1.0, -2.5, 3.0}));
  EXPECT_THROW(a.to_vector<float>(), TypeError);
  EXPECT_THROW(a.to_vector<std::int64_t>(), TypeError);
  const std::vector<std::int32_t> v = {1, 2, 3, 4, 5, 6};
  const ndarray b = from_host(v.data(), DType::Int32, {2, 3});
  EXPECT_EQ(b.to_vector<std::int32_t>(), v);
  EXPECT_EQ(b.strides(), (Strides{12, 4}));
}

TEST_F(CoreNdarray, ViewsShareStorage) {
  const ndarray a = iota(6).reshape({2, 3});
  EXPECT_FALSE(a.owndata());
  const ndarray t = a.T();
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_EQ(t.strides(), (Strides{8, 24}));
  EXPECT_EQ(t.storage(), a.storage());
  EXPECT_TRUE(t.is_f_contiguous());
  EXPECT_FALSE(t.owndata());
  EXPECT_EQ(t.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
  ndarray row = a[1];
  row.fill(Scalar(9));
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 9, 9, 9}));
  EXPECT_TRUE(row.may_share_memory(a));
  EXPECT_FALSE(a[0].may_share_memory(a[1]));
  const int axes[] = {1, 0};
  EXPECT_EQ(a.transpose(axes).strides(), (Strides{8, 24}));
  const int bad[] = {0, 0};
  EXPECT_THROW(a.transpose(bad), ValueError);
}

TEST_F(CoreNdarray, BasicIndexing) {
  const ndarray a = iota(24).reshape({2, 3, 4});
  // a[1, :, ::-2] == [[15, 13], [19, 17], [23, 21]]
  const ndarray v = a.view({1, slice(), slice(std::nullopt, std::nullopt, -2)});
  EXPECT_EQ(v.shape(), (Shape{3, 2}));
  EXPECT_EQ(v.strides(), (Strides{32, -16}));
  EXPECT_EQ(v.to_vector<std::int64_t>(), (std::vector<std::int64_t>{15, 13, 19, 17, 23, 21}));
  // a[..., 0]
  const ndarray e = a.view({ellipsis, 0});
  EXPECT_EQ(e.shape(), (Shape{2, 3}));
  EXPECT_EQ(e.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 4, 8, 12, 16, 20}));
  // a[None, ..., None]
  EXPECT_EQ(a.view({newaxis, ellipsis, newaxis}).shape(), (Shape{1, 2, 3, 4, 1}));
  // a[-1, 1:, -1]
  EXPECT_EQ(a.view({-1, slice(1), -1}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{19, 23}));
  // Out-of-range slice bounds clamp: a[5:10] and a[-100:100]
  EXPECT_EQ(a.view({slice(5, 10)}).shape(), (Shape{0, 3, 4}));
  EXPECT_EQ(a.view({slice(-100, 100)}).shape(), (Shape{2, 3, 4}));
  // a[0, 3:0:-1, 1] -> [9, 5]
  EXPECT_EQ(a.view({0, slice(3, 0, -1), 1}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{9, 5}));
  // a[:, :, 1:4:2]
  EXPECT_EQ(a.view({slice(), slice(), slice(1, 4, 2)}).shape(), (Shape{2, 3, 2}));
  // A 0-d result.
  const ndarray s = a.view({1, 2, 3});
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.item().to_int64(), 23);
}

TEST_F(CoreNdarray, IndexingErrors) {
  const ndarray a = iota(24).reshape({2, 3, 4});
  EXPECT_THROW(a[2], IndexError);
  EXPECT_EQ(error_of([&] { a[2]; }), "index 2 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(error_of([&] { a.view({0, -4}); }), "index -4 is out of bounds for axis 1 with size 3");
  EXPECT_THROW(a.view({0, 0, 0, 0}), IndexError);
  EXPECT_EQ(error_of([&] { a.view({0, 0, 0, 0}); }),
            "too many indices for array: array is 3-dimensional, but 4 were indexed");
  EXPECT_THROW(a.view({ellipsis, 0, ellipsis}), IndexError);
  EXPECT_EQ(error_of([&] { a.view({ellipsis, ellipsis}); }), "an index can only have a single ellipsis ('...')");
  EXPECT_THROW(a.view({slice(0, 2, 0)}), ValueError);
  EXPECT_EQ(error_of([&] { a.view({slice(0, 2, 0)}); }), "slice step cannot be zero");
}

TEST_F(CoreNdarray, ReshapeViewOrCopy) {
  const ndarray base = iota(12);
  const ndarray m = base.reshape({3, 4});
  EXPECT_EQ(m.storage(), base.storage());
  EXPECT_FALSE(m.owndata());
  EXPECT_EQ(m.strides(), (Strides{32, 8}));
  EXPECT_EQ(base.reshape({2, -1, 3}).shape(), (Shape{2, 2, 3}));
  // (3, 4).T -> (12,) in C order needs a copy: [0, 4, 8, 1, 5, 9, ...]
  const ndarray tc = m.T().reshape({12});
  EXPECT_NE(tc.storage(), base.storage());
  EXPECT_EQ(tc.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  // ... but in F order it is a view.
  const ndarray tf = m.T().reshape({12}, Order::F);
  EXPECT_EQ(tf.storage(), base.storage());
  EXPECT_EQ(tf.to_vector<std::int64_t>(), base.to_vector<std::int64_t>());
  // Every other row: (2, 4) -> (8,) copies; (2, 4) -> (2, 2, 2) is a view.
  const ndarray rows = m.view({slice(std::nullopt, std::nullopt, 2)});
  EXPECT_NE(rows.reshape({8}).storage(), base.storage());
  EXPECT_EQ(rows.reshape({8}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 8, 9, 10, 11}));
  const ndarray r3 = rows.reshape({2, 2, 2});
  EXPECT_EQ(r3.storage(), base.storage());
  EXPECT_EQ(r3.strides(), (Strides{64, 16, 8}));
  // Columns [:, :2] -> (6,) copies.
  const ndarray cols = m.view({slice(), slice(std::nullopt, 2)});
  EXPECT_NE(cols.reshape({6}).storage(), base.storage());
  EXPECT_EQ(cols.reshape({6}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 4, 5, 8, 9}));
  // Size-1 axes inserted anywhere keep it a view; strides as NumPy gives them.
  const ndarray ones_axes = base.view({slice(std::nullopt, 6)}).reshape({2, 1, 3});
  EXPECT_EQ(ones_axes.storage(), base.storage());
  EXPECT_EQ(ones_axes.strides(), (Strides{24, 24, 8}));
  // Errors.
  EXPECT_EQ(error_of([&] { base.reshape({5}); }), "cannot reshape array of size 12 into shape (5,)");
  EXPECT_THROW(base.reshape({5, -1}), ValueError);
  EXPECT_THROW(base.reshape({-1, -1}), ValueError);
  EXPECT_THROW(base.reshape({12}, Order::K), ValueError);
}

TEST_F(CoreNdarray, ReshapeCopyArgument) {
  const ndarray m = iota(12).reshape({3, 4});
  // copy=false: a view, or NumPy's ValueError when only a copy can give the shape.
  EXPECT_EQ(m.reshape({4, 3}, Order::C, false).storage(), m.storage());
  EXPECT_EQ(error_of([&] { m.T().reshape({12}, Order::C, false); }),
            "Unable to avoid creating a copy while reshaping.");
  // copy=true: a new buffer even where a view would do.
  const ndarray c = m.reshape({2, 6}, Order::C, true);
  EXPECT_NE(c.storage(), m.storage());
  EXPECT_FALSE(c.may_share_memory(m));
  EXPECT_EQ(c.to_vector<std::int64_t>(), m.to_vector<std::int64_t>());
  const ndarray f = m.reshape({12}, Order::F, true);
  EXPECT_EQ(f.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST_F(CoreNdarray, ViewAsDtype) {
  const ndarray a = iota(6, DType::Int32).reshape({2, 3});
  // Same item size: shape and strides kept.
  const ndarray u = a.view(DType::UInt32);
  EXPECT_EQ(u.shape(), (Shape{2, 3}));
  EXPECT_EQ(u.storage(), a.storage());
  EXPECT_EQ(u.to_vector<std::uint32_t>(), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5}));
  // Smaller items: the last axis grows (little-endian halves).
  const ndarray h = a.view(DType::Int16);
  EXPECT_EQ(h.shape(), (Shape{2, 6}));
  EXPECT_EQ(h.strides(), (Strides{12, 2}));
  EXPECT_EQ(h.to_vector<std::int16_t>(), (std::vector<std::int16_t>{0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0}));
  // Larger items need the last axis' bytes to divide.
  const ndarray w = iota(8, DType::Int32).reshape({2, 4}).view(DType::Int64);
  EXPECT_EQ(w.shape(), (Shape{2, 2}));
  EXPECT_EQ(w.to_vector<std::int64_t>()[1], (std::int64_t{3} << 32) | 2);
  EXPECT_EQ(error_of([&] { a.view(DType::Int64); }),
            "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
            "axis of the array.");
  EXPECT_EQ(error_of([&] { a.view({slice(), slice(std::nullopt, std::nullopt, 2)}).view(DType::Int16); }),
            "To change to a dtype of a different size, the last axis must be contiguous");
  EXPECT_EQ(error_of([&] { a.view({0, 0}).view(DType::Int16); }),
            "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  // A length-1 last axis may have any stride; an empty array keeps its length 0.
  EXPECT_EQ(a.view({slice(), slice(std::nullopt, 1)}).view(DType::Int16).shape(), (Shape{2, 2}));
  EXPECT_EQ(zeros({3, 0}, {.dtype = DType::Int32}).view(DType::Int64).shape(), (Shape{3, 0}));
  // The view writes through and keeps read-only-ness.
  ndarray b = iota(4, DType::Int32);
  b.view(DType::Float32).fill(Scalar(1.0));
  EXPECT_EQ(b.to_vector<std::int32_t>()[0], 0x3f800000);
  EXPECT_FALSE(b.broadcast_to({2, 4}).view(DType::UInt32).writeable());
}

TEST_F(CoreNdarray, Byteswap) {
  const ndarray a = asarray<std::int32_t>({1, 0x01020304, -1});
  const ndarray s = a.byteswap();
  EXPECT_NE(s.storage(), a.storage());
  EXPECT_EQ(s.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0x01000000, 0x04030201, -1}));
  EXPECT_EQ(a.to_vector<std::int32_t>()[0], 1);
  // Complex numbers swap each part; non-contiguous inputs give a C-ordered result.
  const ndarray c = asarray<std::complex<float>>({{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}});
  const ndarray cs = c.view({slice(std::nullopt, std::nullopt, 2)}).byteswap();
  EXPECT_EQ(cs.shape(), (Shape{2}));
  const std::vector<std::uint32_t> bits = cs.view(DType::UInt32).to_vector<std::uint32_t>();
  EXPECT_EQ(bits[0], 0x0000803fu);  // 1.0f = 0x3f800000 swapped
  EXPECT_EQ(bits[1], 0x00000040u);  // 2.0f = 0x40000000 swapped
  EXPECT_EQ(cs.byteswap().to_vector<std::complex<float>>()[1], (std::complex<float>{5.0f, 6.0f}));
  // In place: the same array, swapped; single bytes are unchanged.
  ndarray b = asarray<std::uint16_t>({0x0102, 0x0304});
  const ndarray r = b.byteswap(true);
  EXPECT_EQ(r.storage(), b.storage());
  EXPECT_EQ(b.to_vector<std::uint16_t>(), (std::vector<std::uint16_t>{0x0201, 0x0403}));
  EXPECT_EQ(asarray<std::uint8_t>({1, 2}).byteswap().to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 2}));
  EXPECT_THROW(b.broadcast_to({2, 2}).byteswap(true), ValueError);
}

TEST_F(CoreNdarray, CopyOrders) {
  const ndarray m = iota(6, DType::Float32).reshape({2, 3});
  const ndarray c = m.copy();
  EXPECT_FALSE(c.may_share_memory(m));
  EXPECT_NE(c.storage(), m.storage());
  EXPECT_EQ(c.strides(), (Strides{12, 4}));
  const ndarray f = m.copy(Order::F);
  EXPECT_EQ(f.strides(), (Strides{4, 8}));
  EXPECT_EQ(f.to_vector<float>(), m.to_vector<float>());
  const ndarray k = m.T().copy(Order::K);
  EXPECT_EQ(k.strides(), (Strides{4, 12}));
  EXPECT_EQ(k.to_vector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  const ndarray a = m.T().copy(Order::A);
  EXPECT_TRUE(a.is_f_contiguous());
  EXPECT_EQ(m.T().copy(Order::C).strides(), (Strides{8, 4}));
  // Negative strides become positive under K.
  const ndarray rev = m.view({slice(), slice(std::nullopt, std::nullopt, -1)}).copy(Order::K);
  EXPECT_EQ(rev.strides(), (Strides{12, 4}));
  EXPECT_EQ(rev.to_vector<float>(), (std::vector<float>{2, 1, 0, 5, 4, 3}));
}

TEST_F(CoreNdarray, Astype) {
  const ndarray d = asarray<double>({1.7, -1.7, 300.0});
  const ndarray i8 = d.astype(DType::Int8);
  EXPECT_EQ(i8.dtype(), DType::Int8);
  EXPECT_EQ(i8.to_vector<std::int8_t>(), (std::vector<std::int8_t>{1, -1, 44}));
  EXPECT_THROW(d.astype(DType::Int8, {.casting = Casting::Safe}), TypeError);
  EXPECT_EQ(error_of([&] { d.astype(DType::Int8, {.casting = Casting::Safe}); }),
            "Cannot cast array data from dtype('float64') to dtype('int8') according to the rule 'safe'");
  EXPECT_EQ(error_of([&] { d.astype(DType::Int64, {.casting = Casting::SameKind}); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'");
  EXPECT_EQ(d.astype(DType::Float32, {.casting = Casting::SameKind}).dtype(), DType::Float32);
  EXPECT_THROW(d.astype(DType::Float32, {.casting = Casting::Equiv}), TypeError);
  EXPECT_EQ(d.astype(DType::Complex128, {.casting = Casting::Safe}).to_vector<std::complex<double>>()[1],
            std::complex<double>(-1.7, 0));
  EXPECT_EQ(d.astype(DType::Bool).to_vector<bool>(), (std::vector<bool>{true, true, true}));
  // copy=false: the same buffer when nothing changes, a new one otherwise.
  EXPECT_EQ(d.astype(DType::Float64, {.copy = false}).storage(), d.storage());
  EXPECT_NE(d.astype(DType::Float64).storage(), d.storage());
  const ndarray m = iota(6).reshape({2, 3});
  EXPECT_NE(m.astype(DType::Int64, {.order = Order::F, .copy = false}).storage(), m.storage());
  EXPECT_TRUE(m.astype(DType::Int64, {.order = Order::F, .copy = false}).is_f_contiguous());
}

TEST_F(CoreNdarray, FillItemToVector) {
  ndarray a = zeros({2, 3}, {.dtype = DType::Int16});
  a.fill(Scalar(7));
  EXPECT_EQ(a.to_vector<std::int16_t>(), std::vector<std::int16_t>(6, 7));
  a.fill(Scalar(-2.9));
  EXPECT_EQ(a.item(0).to_int64(), -2);
  EXPECT_THROW(a.fill(Scalar(40000)), OverflowError);
  EXPECT_EQ(a.item(5).to_int64(), -2);  // unchanged by the failed fill
  const ndarray m = iota(6).reshape({2, 3});
  EXPECT_EQ(m.item(4).to_int64(), 4);
  EXPECT_EQ(m.item(-1).to_int64(), 5);
  EXPECT_EQ(m.item(4).dtype(), DType::Int64);
  EXPECT_FALSE(m.item(4).weak());
  const std::int64_t idx[] = {1, -3};
  EXPECT_EQ(m.item(idx).to_int64(), 3);
  EXPECT_EQ(m.T().item(1).to_int64(), 3);  // C order over the view
  EXPECT_THROW(m.item(6), IndexError);
  EXPECT_THROW(m.item(-7), IndexError);
  const std::int64_t bad[] = {2, 0};
  EXPECT_THROW(m.item(bad), IndexError);
  EXPECT_EQ(error_of([&] { m.item(); }), "can only convert an array of size 1 to a Python scalar");
  EXPECT_THROW(m.item(), ValueError);
  EXPECT_EQ(full({1, 1}, Scalar(2.5)).item().to_double(), 2.5);
}

TEST_F(CoreNdarray, SetItemBroadcasts) {
  ndarray z = zeros({3, 4});
  z.set_item({slice(), slice(1, 3)}, asarray<double>({5.0, 6.0}));
  EXPECT_EQ(z.to_vector<double>(), (std::vector<double>{0, 5, 6, 0, 0, 5, 6, 0, 0, 5, 6, 0}));
  const Index row[] = {std::int64_t{2}};
  z.set_item(row, Scalar(-1));
  EXPECT_EQ(z.to_vector<double>()[8], -1.0);
  EXPECT_EQ(z.to_vector<double>()[11], -1.0);
  // A column vector broadcast along the rows.
  const ndarray col = asarray<std::int32_t>({1, 2, 3}).reshape({3, 1});
  z.set_item({ellipsis}, col);
  EXPECT_EQ(z.to_vector<double>(), (std::vector<double>{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  EXPECT_THROW(z.set_item({slice(), slice(1, 3)}, asarray<double>({1.0, 2.0, 3.0})), ValueError);
  // Casting rules of assign.
  ndarray i = zeros({2}, {.dtype = DType::Int32});
  EXPECT_THROW(i.assign(asarray<double>({1.5, 2.5}), Casting::SameKind), TypeError);
  i.assign(asarray<double>({1.5, -2.5}));
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, -2}));
  // Read-only views refuse writes.
  ndarray ro = z.view({0}).broadcast_to({2, 4});
  EXPECT_FALSE(ro.writeable());
  EXPECT_EQ(error_of([&] { ro.fill(Scalar(1)); }), "assignment destination is read-only");
}

TEST_F(CoreNdarray, CopiesShareNothingMutable) {
  // set_shape on a copy of the handle leaves the original alone.
  const ndarray a = iota(6);
  ndarray b = a;
  b.set_shape({2, 3});
  EXPECT_EQ(b.shape(), (Shape{2, 3}));
  EXPECT_EQ(b.strides(), (Strides{24, 8}));
  EXPECT_EQ(a.shape(), (Shape{6}));
  EXPECT_EQ(a.strides(), (Strides{8}));
  EXPECT_EQ(a.size(), 6);
  EXPECT_EQ(a.storage(), b.storage());  // still one buffer
  EXPECT_EQ(a.data(), b.data());
  b.set_shape({3, 2, 1});
  EXPECT_EQ(a.shape(), (Shape{6}));
  EXPECT_EQ(b.shape(), (Shape{3, 2, 1}));
  EXPECT_TRUE(b.is_c_contiguous());
  b.view({0, 0, 0}).fill(Scalar(7));  // writes reach the shared buffer
  EXPECT_EQ(a.item(0).to_int64(), 7);

  // set_shape on a view: other views and the base keep their metadata.
  const ndarray t = iota(12).reshape({3, 4});
  ndarray v = t.view({slice(1, 3)});
  const ndarray w = v;
  v.set_shape({8});
  EXPECT_EQ(w.shape(), (Shape{2, 4}));
  EXPECT_EQ(t.shape(), (Shape{3, 4}));
  EXPECT_EQ(v.to_vector<std::int64_t>(), (std::vector<std::int64_t>{4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_FALSE(v.owndata());
  EXPECT_THROW(t.T().copy().T().set_shape({12}), AttributeError);

  // set_writeable on a copy of the handle leaves the original writeable.
  ndarray c = a;
  c.set_writeable(false);
  EXPECT_FALSE(c.writeable());
  EXPECT_TRUE(a.writeable());
  EXPECT_TRUE(a.flags().writeable);
  EXPECT_FALSE(c.flags().writeable);
  ndarray writer = a;
  writer.fill(Scalar(3));  // the original still accepts writes
  EXPECT_EQ(error_of([&] { c.fill(Scalar(1)); }), "assignment destination is read-only");
  // and back: c becomes writeable again without touching a copy made while read-only.
  const ndarray d = c;
  c.set_writeable(true);
  EXPECT_TRUE(c.writeable());
  EXPECT_FALSE(d.writeable());

  // A view of a read-only array cannot be made writeable; its copy stays read-only too.
  ndarray ro = iota(4);
  ro.set_writeable(false);
  ndarray rv = ro[{slice(1, 3)}];
  EXPECT_FALSE(rv.writeable());
  const ndarray rv2 = rv;
  EXPECT_THROW(rv.set_writeable(true), ValueError);
  EXPECT_FALSE(rv.writeable());
  EXPECT_FALSE(rv2.writeable());
}

TEST_F(CoreNdarray, UndefinedArray) {
  const ndarray u;
  EXPECT_FALSE(u.defined());
  EXPECT_TRUE(u.shape().empty());
  EXPECT_TRUE(u.strides().empty());
  EXPECT_EQ(u.ndim(), 0);
  EXPECT_EQ(u.data(), nullptr);
  EXPECT_EQ(u.storage(), nullptr);
  EXPECT_TRUE(u.owndata());
  EXPECT_FALSE(u.base().defined());
  EXPECT_FALSE(u.may_share_memory(iota(3)));
  EXPECT_FALSE(iota(3).may_share_memory(u));
  EXPECT_THROW(u.reshape({1}), ValueError);
  EXPECT_THROW(u.copy(), ValueError);
  ndarray v = u;
  v.set_writeable(false);
  EXPECT_FALSE(v.defined());
  EXPECT_FALSE(v.writeable());
  EXPECT_TRUE(u.writeable());
  const ndarray a = iota(3);
  const ndarray moved = std::move(v);
  EXPECT_FALSE(moved.defined());
  EXPECT_FALSE(a.base().defined());
  EXPECT_TRUE(a[{slice(1)}].base().defined());
  EXPECT_EQ(a[{slice(1)}].base().shape(), (Shape{3}));
}

TEST_F(CoreNdarray, Repr) {
  EXPECT_EQ(asarray<double>({1.0, 2.5}).repr(), "array([1. , 2.5])");
  EXPECT_EQ(zeros({2, 2}, {.dtype = DType::Int32}).repr(), "array([[0, 0],\n       [0, 0]], dtype=int32)");
  EXPECT_EQ(full({}, Scalar(3.5), {.dtype = DType::Float32}).repr(), "array(3.5, dtype=float32)");
  EXPECT_EQ(iota(3, DType::UInt8).repr(), "array([0, 1, 2], dtype=uint8)");
}

}  // namespace
}  // namespace cunp
