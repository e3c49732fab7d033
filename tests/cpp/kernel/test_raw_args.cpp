// RawKernel arguments to parameter bytes (Note [RawKernel arguments]): cpu arrays
// stand in for device arrays, so no GPU is needed.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "kernel/raw_args.hpp"
#include "kernel/raw_signature.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda::raw {
namespace {

template <typename T>
std::string bytes_of(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}

std::vector<RawKernelParam> params_of(const std::string& decl) {
  return parse_kernel_params("extern \"C\" __global__ void k(" + decl + ") {}", "k").value();
}

PackedArgs pack(const std::string& decl, const std::vector<RawArg>& args,
                Device device = Device::cpu()) {
  return pack_args(args, params_of(decl), device, "k");
}

template <typename E, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(RawArgs, WeakScalarsTakeTheDeclaredType) {
  const PackedArgs p = pack(
      "int n, unsigned char c, float f, double d, long long l, bool b, complex<float> z, __half h",
      {7, 200, 1.5, 2, -1, true, std::complex<double>(1, 2), 0.5});
  ASSERT_EQ(p.count(), 8u);
  EXPECT_EQ(p.bytes(0), bytes_of(std::int32_t{7}));
  EXPECT_EQ(p.bytes(1), bytes_of(std::uint8_t{200}));
  EXPECT_EQ(p.bytes(2), bytes_of(1.5f));
  EXPECT_EQ(p.bytes(3), bytes_of(2.0));  // int to double
  EXPECT_EQ(p.bytes(4), bytes_of(std::int64_t{-1}));
  EXPECT_EQ(p.bytes(5), bytes_of(true));
  EXPECT_EQ(p.bytes(6), bytes_of(std::complex<float>(1, 2)));
  EXPECT_EQ(p.bytes(7), bytes_of(std::uint16_t{0x3800}));  // 0.5 as IEEE half
}

TEST(RawArgs, SlotsAreAlignedAndPointersPointAtThem) {
  PackedArgs p = pack("char c, double d, complex<double> z", {1, 2.0, std::complex<double>(3, 4)});
  for (std::size_t i = 0; i < p.count(); ++i) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.pointers()[i]) % 16, 0u);
    EXPECT_EQ(std::memcmp(p.pointers()[i], p.bytes(i).data(), p.bytes(i).size()), 0);
  }
}

TEST(RawArgs, ArraysAndAddresses) {
  const ndarray x = zeros({4}, {.dtype = DType::Float32, .device = Device::cpu()});
  const PackedArgs p =
      pack("const float* x, float* y, T* t, unsigned long long a",
           {x, RawArg::pointer(x.data(), Device::cpu()), x, RawArg::pointer(nullptr)});
  EXPECT_EQ(p.bytes(0), bytes_of(reinterpret_cast<std::uint64_t>(x.data())));
  EXPECT_EQ(p.bytes(1), p.bytes(0));
  EXPECT_EQ(p.bytes(2), p.bytes(0));  // a pointer to an unresolved type
  EXPECT_EQ(p.bytes(3), bytes_of(std::uint64_t{0}));
  // An int for a pointer is the address.
  EXPECT_EQ(pack("float* y", {4096}).bytes(0), bytes_of(std::uint64_t{4096}));
  EXPECT_NE(error_of<ValueError>([&] {
              pack("float* x", {x}, Device::cuda(0));
            }).find("args[0] (float* x): the array is on cpu, but the kernel runs on cuda:0"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              pack("int n", {x});
            }).find("an array cannot be passed to a scalar parameter"),
            std::string::npos);
  EXPECT_NE(
      error_of<TypeError>([&] { pack("float4 v", {x}); }).find("the parameter is not a pointer"),
      std::string::npos);
  EXPECT_NE(error_of<ValueError>([&] { pack("float* x", {ndarray()}); }).find("undefined"),
            std::string::npos);
}

TEST(RawArgs, StrongScalarsPassTheirExactBytes) {
  const PackedArgs p =
      pack("int n, float f, unsigned short u",
           {RawArg::exact(std::int32_t{-5}), RawArg::exact(2.5f), RawArg::exact(std::uint16_t{9})});
  EXPECT_EQ(p.bytes(0), bytes_of(std::int32_t{-5}));
  EXPECT_EQ(p.bytes(1), bytes_of(2.5f));
  EXPECT_EQ(p.bytes(2), bytes_of(std::uint16_t{9}));
  // Same size, another kind: the bytes as they are (C's view of the parameter).
  EXPECT_EQ(pack("int n", {RawArg::exact(1.0f)}).bytes(0), bytes_of(1.0f));
  const std::string e =
      error_of<TypeError>([] { pack("int n", {RawArg::exact(std::int64_t{5})}); });
  EXPECT_NE(
      e.find("args[0] (int n): a numpy.int64 is 8 bytes, but the parameter takes 4 (numpy.int32)"),
      std::string::npos)
      << e;
  EXPECT_NE(error_of<TypeError>([] { pack("float* p", {RawArg::exact(1.0)}); }).find("pointer"),
            std::string::npos);
}

TEST(RawArgs, SameKindRuleAndRanges) {
  EXPECT_NE(error_of<TypeError>([] {
              pack("int n", {2.5});
            }).find("cannot convert a Python float to the parameter's type int (int32)"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([] { pack("bool b", {1}); }).find("a Python int"),
            std::string::npos);
  EXPECT_NE(
      error_of<TypeError>([] { pack("double d", {std::complex<double>(1, 1)}); }).find("complex"),
      std::string::npos);
  EXPECT_NE(error_of<OverflowError>([] {
              pack("int n", {std::int64_t{1} << 31});
            }).find("out of bounds for int32"),
            std::string::npos);
  EXPECT_NE(error_of<OverflowError>([] { pack("unsigned n", {-1}); }).find("uint32"),
            std::string::npos);
  EXPECT_NE(error_of<OverflowError>([] { pack("float* p", {-1}); }).find("address"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([] { pack("float* p", {1.0}); }).find("pointer"),
            std::string::npos);
  EXPECT_EQ(pack("unsigned long long u", {UINT64_MAX}).bytes(0), bytes_of(UINT64_MAX));
  EXPECT_EQ(pack("float f", {true}).bytes(0), bytes_of(1.0f));  // bool to any number
}

TEST(RawArgs, ParametersOfUnknownTypeTakeTheirSize) {
  // The driver's sizes for a struct and a type the parser cannot resolve.
  std::vector<RawKernelParam> params(4);
  params[0].size = 4;
  params[1].size = 8;
  params[2].size = 2;
  params[3].size = 12;
  const PackedArgs p =
      pack_args(std::vector<RawArg>{1, 2.0, 3.0, RawArg::bytes(std::string(12, 'x'))}, params,
                Device::cpu(), "k");
  EXPECT_EQ(p.bytes(0), bytes_of(std::int32_t{1}));
  EXPECT_EQ(p.bytes(1), bytes_of(2.0));
  EXPECT_EQ(p.bytes(2), bytes_of(std::uint16_t{0x4200}));  // 3.0 as half
  EXPECT_EQ(p.bytes(3), std::string(12, 'x'));
  EXPECT_NE(error_of<TypeError>([&] {
              pack_args(std::vector<RawArg>{1, 2.0, 3.0, 4}, params, Device::cpu(), "k");
            }).find("of 12 bytes"),
            std::string::npos);
  EXPECT_NE(error_of<TypeError>([&] {
              pack_args(std::vector<RawArg>{1, 2.0, 3.0, RawArg::bytes("abc")}, params,
                        Device::cpu(), "k");
            }).find("a structured scalar of 3 bytes, but the parameter takes 12"),
            std::string::npos);
}

TEST(RawArgs, UnknownLayoutPassesNaturalBytes) {
  const PackedArgs p = pack_args(std::vector<RawArg>{1, 2.5, true, std::complex<double>(1, 0)},
                                 std::nullopt, Device::cpu(), "k");
  EXPECT_EQ(p.bytes(0), bytes_of(std::int64_t{1}));
  EXPECT_EQ(p.bytes(1), bytes_of(2.5));
  EXPECT_EQ(p.bytes(2), bytes_of(true));
  EXPECT_EQ(p.bytes(3), bytes_of(std::complex<double>(1, 0)));
}

TEST(RawArgs, ArgumentCount) {
  const std::string e = error_of<TypeError>([] {
    pack("float a, const float* x, int n", {1.0, 2});
  });
  EXPECT_EQ(e, "RawKernel 'k' takes 3 arguments (float a, const float* x, int n) but 2 were given");
  EXPECT_EQ(pack("", {}).count(), 0u);
}

}  // namespace
}  // namespace cunp::cuda::raw
