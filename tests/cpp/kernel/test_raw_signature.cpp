// Reading hand-written kernels' declarations: the C type table, macros, aliases,
// templates and the declarations found or missed. No GPU, no NVRTC.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "kernel/raw_signature.hpp"

namespace cunp::cuda::raw {
namespace {

struct TypeCase {
  const char* spelled;
  const char* shown;
  RawParamKind kind;
  std::optional<DType> dtype;
  std::size_t size;
};

class RawSignatureTypes : public ::testing::TestWithParam<TypeCase> {};

TEST_P(RawSignatureTypes, Classify) {
  const TypeCase& c = GetParam();
  const RawKernelParam p = classify_type(c.spelled);
  EXPECT_EQ(p.type, c.shown);
  EXPECT_EQ(p.kind, c.kind);
  EXPECT_EQ(p.dtype, c.dtype);
  EXPECT_EQ(p.size, c.size);
}

constexpr RawParamKind P = RawParamKind::Pointer, S = RawParamKind::Scalar, O = RawParamKind::Other;

INSTANTIATE_TEST_SUITE_P(
    Table, RawSignatureTypes,
    ::testing::Values(
        TypeCase{"const float * __restrict__", "const float* __restrict__", P, std::nullopt, 8},
        TypeCase{"double**", "double**", P, std::nullopt, 8},
        TypeCase{"const complex<float>*", "const complex<float>*", P, std::nullopt, 8},
        TypeCase{"bool", "bool", S, DType::Bool, 1}, TypeCase{"char", "char", S, DType::Int8, 1},
        TypeCase{"unsigned char", "unsigned char", S, DType::UInt8, 1},
        TypeCase{"short int", "short int", S, DType::Int16, 2},
        TypeCase{"unsigned short", "unsigned short", S, DType::UInt16, 2},
        TypeCase{"int", "int", S, DType::Int32, 4},
        TypeCase{"signed", "signed", S, DType::Int32, 4},
        TypeCase{"unsigned", "unsigned", S, DType::UInt32, 4},
        TypeCase{"long", "long", S, DType::Int64, 8},
        TypeCase{"unsigned long int", "unsigned long int", S, DType::UInt64, 8},
        TypeCase{"long long", "long long", S, DType::Int64, 8},
        TypeCase{"const unsigned long long", "const unsigned long long", S, DType::UInt64, 8},
        TypeCase{"size_t", "size_t", S, DType::UInt64, 8},
        TypeCase{"::size_t", "::size_t", S, DType::UInt64, 8},
        TypeCase{"std::ptrdiff_t", "std::ptrdiff_t", S, DType::Int64, 8},
        TypeCase{"cuda::std::int16_t", "cuda::std::int16_t", S, DType::Int16, 2},
        TypeCase{"uint8_t", "uint8_t", S, DType::UInt8, 1},
        TypeCase{"float", "float", S, DType::Float32, 4},
        TypeCase{"double", "double", S, DType::Float64, 8},
        TypeCase{"__half", "__half", S, DType::Float16, 2},
        TypeCase{"half", "half", S, DType::Float16, 2},
        TypeCase{"complex<float>", "complex<float>", S, DType::Complex64, 8},
        TypeCase{"thrust::complex<double>", "thrust::complex<double>", S, DType::Complex128, 16},
        TypeCase{"cuDoubleComplex", "cuDoubleComplex", S, DType::Complex128, 16},
        TypeCase{"float2", "float2", O, std::nullopt, 8},
        TypeCase{"uint4", "uint4", O, std::nullopt, 16},
        TypeCase{"longlong3", "longlong3", O, std::nullopt, 24},
        TypeCase{"__half2", "__half2", O, std::nullopt, 4},
        TypeCase{"complex<int>", "complex<int>", O, std::nullopt, 0},
        TypeCase{"Params", "Params", O, std::nullopt, 0},
        TypeCase{"const __grid_constant__ Params", "const __grid_constant__ Params", O,
                 std::nullopt, 0},
        TypeCase{"long double", "long double", O, std::nullopt, 0}));

std::vector<RawKernelParam> parse(const std::string& source, const std::string& name,
                                  const std::vector<std::string>& options = {}) {
  std::optional<std::vector<RawKernelParam>> p = parse_kernel_params(source, name, options);
  EXPECT_TRUE(p.has_value()) << name;
  return p.value_or(std::vector<RawKernelParam>{});
}

std::vector<std::string> names(const std::vector<RawKernelParam>& ps) {
  std::vector<std::string> out;
  for (const RawKernelParam& p : ps) out.push_back(p.name);
  return out;
}
std::vector<std::string> types(const std::vector<RawKernelParam>& ps) {
  std::vector<std::string> out;
  for (const RawKernelParam& p : ps) out.push_back(p.type);
  return out;
}

TEST(RawSignature, NamesTypesAndDecay) {
  const auto p =
      parse(R"(extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float *y,
                                                             int n, float table[16], int) {})",
            "saxpy");
  EXPECT_EQ(names(p), (std::vector<std::string>{"a", "x", "y", "n", "table", ""}));
  EXPECT_EQ(types(p), (std::vector<std::string>{"float", "const float* __restrict__", "float*",
                                                "int", "float*", "int"}));
  EXPECT_EQ(p[3].dtype, DType::Int32);
  EXPECT_EQ(p[4].kind, RawParamKind::Pointer);
}

TEST(RawSignature, EmptyAndVoidLists) {
  EXPECT_TRUE(parse(R"(extern "C" __global__ void k() {})", "k").empty());
  EXPECT_TRUE(parse(R"(extern "C" __global__ void k(void) {})", "k").empty());
}

TEST(RawSignature, CommentsLiteralsAndOtherFunctionsAreSkipped) {
  const std::string src = R"(
    // __global__ void k(double wrong);
    /* __global__ void k(char wrong); */
    __device__ void k(short not_a_kernel);
    const char* s = "__global__ void k(long wrong) {";
    struct S { void k(int member); };
    extern "C" {
    __global__ void __launch_bounds__(256, 2) k(unsigned n, const char* msg = "a, b") {}
    }
  )";
  const auto p = parse(src, "k");
  EXPECT_EQ(types(p), (std::vector<std::string>{"unsigned", "const char*"}));
  EXPECT_EQ(names(p), (std::vector<std::string>{"n", "msg"}));
  EXPECT_FALSE(parse_kernel_params(src, "missing").has_value());
  EXPECT_FALSE(parse_kernel_params("", "k").has_value());
}

TEST(RawSignature, MacrosFromSourceAndOptions) {
  const std::string src = R"(
    #define REAL double
    #define KERNEL extern "C" __global__ void
    #define CONTINUED \
        unsigned short
    #define FN(x) x
    KERNEL k(REAL a, INDEX n, CONTINUED s, FN(int) f) {}
  )";
  const auto p = parse(src, "k", {"-DINDEX=long long", "-I/somewhere"});
  EXPECT_EQ(types(p),
            (std::vector<std::string>{"double", "long long", "unsigned short", "FN(int)"}));
  EXPECT_EQ(p[1].dtype, DType::Int64);
  EXPECT_EQ(p[2].dtype, DType::UInt16);
  EXPECT_EQ(p[3].kind, RawParamKind::Other);  // function-like macros are not expanded
  const auto q = parse("extern \"C\" __global__ void k(T x) {}", "k", {"--define-macro=T=float"});
  EXPECT_EQ(q[0].dtype, DType::Float32);
  EXPECT_EQ(parse("extern \"C\" __global__ void k(T x) {}", "k", {"-D", "T=short"})[0].dtype,
            DType::Int16);
}

TEST(RawSignature, TypedefsAndUsingAliases) {
  const std::string src = R"(
    typedef float real_t;
    typedef real_t* real_ptr;
    using index_t = unsigned long long;
    namespace ns { using count_t = int; }
    template <typename T> using vec = T*;
    extern "C" __global__ void k(real_t a, real_ptr p, index_t n, ns::count_t c) {}
  )";
  const auto p = parse(src, "k");
  EXPECT_EQ(p[0].dtype, DType::Float32);
  EXPECT_EQ(p[1].kind, RawParamKind::Pointer);
  EXPECT_EQ(p[2].dtype, DType::UInt64);
  EXPECT_EQ(p[3].dtype, DType::Int32);
  EXPECT_EQ(p[3].type, "ns::count_t");
}

TEST(RawSignature, TemplateArgumentsAreSubstituted) {
  const std::string src = R"(
    __global__ void scale(float* x) {}
    template <typename T, int N = 4, typename U = T>
    __global__ void scale(T* x, const T a, U b, int n) {}
    template <class... Ts> __global__ void pack(Ts... xs) {}
  )";
  const auto p = parse(src, "scale<double>");
  EXPECT_EQ(types(p), (std::vector<std::string>{"double*", "const double", "double", "int"}));
  const auto q = parse(src, "ns::scale<unsigned char, 2, long long>");
  EXPECT_EQ(q[1].dtype, DType::UInt8);
  EXPECT_EQ(q[2].dtype, DType::Int64);
  // Without template arguments the non-template overload is the one.
  EXPECT_EQ(types(parse(src, "scale")), (std::vector<std::string>{"float*"}));
  // Packs are not expanded: the parameter stays unresolved.
  const auto r = parse(src, "pack<int, float>");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].kind, RawParamKind::Other);
}

TEST(RawSignature, MalformedSourceNeverThrows) {
  for (const char* src : {"__global__ void k(", "__global__ void k(int a, ",
                          "template <typename T __global__ void k(T x)", "#define",
                          "\"unterminated", "/* open", "__global__ void k(int a[) {}"}) {
    EXPECT_NO_THROW((void)parse_kernel_params(src, "k")) << src;
    EXPECT_NO_THROW((void)parse_kernel_params(src, "k<int>")) << src;
  }
}

}  // namespace
}  // namespace cunp::cuda::raw
