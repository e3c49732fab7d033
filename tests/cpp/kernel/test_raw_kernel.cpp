// RawKernel and RawModule: options, compiles (NVRTC, no GPU), files and name
// expressions run everywhere; launches, globals, attributes and binaries need a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/raw_kernel.hpp"
#include "cunp/stream.hpp"

namespace cunp {
namespace {

namespace fs = std::filesystem;

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device"

constexpr const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

constexpr const char* kModule = R"(
__device__ float table[4];
extern "C" __global__ void use_table(float* out) { int i = threadIdx.x; out[i] = table[i] * 2; table[i] += 1; }
template <typename T> __global__ void fill(T* x, T v, int n) { int i = threadIdx.x; if (i < n) x[i] = v; }
)";

class TempDir {
 public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("cunp-raw-" + std::to_string(::getpid()) + "-" + std::to_string(n_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  static inline int n_ = 0;
  fs::path path_;
};

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

TEST(RawKernel, DeclaredParametersNeedNoGpu) {
  const RawKernel k(kSaxpy, "saxpy");
  EXPECT_EQ(k.name(), "saxpy");
  ASSERT_TRUE(k.declared_params().has_value());
  const std::vector<RawKernelParam>& p = *k.declared_params();
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].dtype, DType::Float32);
  EXPECT_EQ(p[1].type, "const float* __restrict__");
  EXPECT_EQ(p[3].dtype, DType::Int32);
  EXPECT_TRUE(k.module().from_source());
  EXPECT_EQ(k.module().code(), kSaxpy);
}

TEST(RawKernel, CompilesWithoutAGpu) {
  const RawBinary b = RawKernel(kSaxpy, "saxpy").module().cuda_binary(90);
  ASSERT_GT(b.cubin.size(), 4u);
  EXPECT_EQ(b.cubin.substr(0, 4), std::string("\x7f") + "ELF");
  EXPECT_TRUE(b.lowered_names.empty());
}

TEST(RawKernel, NameExpressionsAreLowered) {
  const RawKernel k(kModule, "fill<double>");
  EXPECT_EQ(k.module().options().name_expressions, std::vector<std::string>{"fill<double>"});
  EXPECT_EQ((*k.declared_params())[1].dtype, DType::Float64);
  const RawModule m(kModule, {.name_expressions = {"fill<float>", "fill<int>"}});
  const RawBinary b = m.cuda_binary(90);
  ASSERT_EQ(b.lowered_names.size(), 2u);
  EXPECT_EQ(b.lowered_names[0],
            (std::pair<std::string, std::string>{"fill<float>", "_Z4fillIfEvPT_S0_i"}));
  EXPECT_EQ(b.lowered_names[1],
            (std::pair<std::string, std::string>{"fill<int>", "_Z4fillIiEvPT_S0_i"}));
}

TEST(RawKernel, CompileErrorCarriesTheLog) {
  try {
    RawKernel("extern \"C\" __global__ void bad(int n) { undefined_thing(n); }", "bad")
        .module()
        .cuda_binary(90);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("undefined_thing"), std::string::npos) << e.log();
    EXPECT_NE(std::string(e.what()).find("'bad'"), std::string::npos);
  }
}

TEST(RawKernel, OptionsAreChecked) {
  EXPECT_THROW(RawKernel(kSaxpy, "saxpy", {.options = {"-arch=sm_80"}}), ValueError);
  EXPECT_THROW(RawKernel(kSaxpy, "saxpy", {.backend = "nvcc"}), NotImplementedError);
  EXPECT_THROW(RawKernel(kSaxpy, "saxpy", {.backend = "hipcc"}), ValueError);
  EXPECT_THROW(RawKernel(kSaxpy, "saxpy", {.jitify = true}), NotImplementedError);
  EXPECT_THROW(RawKernel(kSaxpy, ""), ValueError);
  // A caller's -std replaces the default; -D macros reach both NVRTC and the parser.
  const RawKernel k(
      "extern \"C\" __global__ void k(REAL a) { static_assert(__cplusplus >= 202002L); }", "k",
      {.options = {"--std=c++20", "-DREAL=double"}});
  EXPECT_EQ((*k.declared_params())[0].dtype, DType::Float64);
  EXPECT_FALSE(k.module().cuda_binary(90).cubin.empty());
}

TEST(RawModule, Files) {
  TempDir dir;
  EXPECT_THROW(RawModule::from_file(dir.path() / "missing.cubin"), FileNotFoundError);
  write(dir.path() / "twice.cuh", "__device__ inline float twice(float v) { return 2 * v; }\n");
  write(dir.path() / "k.cu",
        "#include \"twice.cuh\"\nextern \"C\" __global__ void dbl(float* x) { x[0] = twice(x[0]); "
        "}\n");
  const RawModule cu = RawModule::from_file(dir.path() / "k.cu");
  EXPECT_TRUE(cu.from_source());
  EXPECT_EQ(cu.path(), dir.path() / "k.cu");
  const std::string cubin = cu.cuda_binary(90).cubin;
  EXPECT_FALSE(cubin.empty());
  write(dir.path() / "k.cubin", cubin);
  const RawModule bin = RawModule::from_file(dir.path() / "k.cubin");
  EXPECT_FALSE(bin.from_source());
  EXPECT_THROW(bin.cuda_binary(90), ValueError);
  if (cuda_device_count() == 0) {
    EXPECT_FALSE(bin.get_function("dbl").declared_params().has_value());
  }
  write(dir.path() / "empty.ptx", "");
  EXPECT_THROW(RawModule::from_file(dir.path() / "empty.ptx"), ValueError);
}

TEST(RawKernel, LaunchChecksDimensionsFirst) {
  const RawKernel k(kSaxpy, "saxpy");
  EXPECT_THROW(k(Dim3(0), 32, {1.0, 0, 0, 0}), ValueError);
  EXPECT_THROW(k(1, Dim3(32, 0), {1.0, 0, 0, 0}), ValueError);
}

// ---- on a GPU ---------------------------------------------------------------------------

TEST(RawKernelGpu, Saxpy) {
  SKIP_WITHOUT_GPU();
  const Device dev = Device::cuda(0);
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f - i;
  const ndarray dx = asarray(x, dev), dy = asarray(y, dev);
  const RawKernel k(kSaxpy, "saxpy");
  k((n + 127) / 128, 128, {2.0, dx, dy, n});  // 2.0 -> float, n -> int
  const std::vector<float> got = dy.to_vector<float>();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 2.0f * x[i] + y[i]) << i;
  EXPECT_THROW(k(1, 32, {2.0, dx, dy}), TypeError);
  const ndarray cpu_x = asarray(x, Device::cpu());
  EXPECT_THROW(k(1, 32, {2.0, cpu_x, dy, n}), ValueError);
}

TEST(RawKernelGpu, StreamAndSharedMemory) {
  SKIP_WITHOUT_GPU();
  const RawKernel k(R"(extern "C" __global__ void block_reverse(const int* x, int* y) {
    extern __shared__ int buf[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[t] = x[base + t];
    __syncthreads();
    y[base + t] = buf[blockDim.x - 1 - t];
  })",
                    "block_reverse");
  std::vector<std::int32_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = i;
  const ndarray dx = asarray(x, Device::cuda(0));
  const ndarray dy = zeros({256}, {.dtype = DType::Int32, .device = Device::cuda(0)});
  const Stream s = Stream::create(0, /*non_blocking=*/true);
  device_synchronize();
  k(2, 128, {dx, dy}, {.shared_mem = 128 * sizeof(std::int32_t), .stream = s});
  s.synchronize();
  const std::vector<std::int32_t> got = dy.to_vector<std::int32_t>();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(got[i], (i / 128) * 128 + 127 - i % 128) << i;
}

TEST(RawKernelGpu, AttributesAndDynamicSharedLimit) {
  SKIP_WITHOUT_GPU();
  RawKernel k(kSaxpy, "saxpy");
  const RawKernelAttributes a = k.attributes();
  EXPECT_GT(a.max_threads_per_block, 0);
  EXPECT_GT(a.num_regs, 0);
  EXPECT_EQ(a.binary_version / 10, std::stoi(cuda_compute_capability(0)) / 10);
  k.set_max_dynamic_shared_size_bytes(64 * 1024);
  EXPECT_EQ(k.attributes().max_dynamic_shared_size_bytes, 64 * 1024);
  EXPECT_THROW(k.set_max_dynamic_shared_size_bytes(-1), ValueError);
}

TEST(RawModuleGpu, GlobalsAndTemplates) {
  SKIP_WITHOUT_GPU();
  const RawModule m(kModule, {.name_expressions = {"fill<float>"}});
  ndarray table = m.get_global("table");
  ASSERT_EQ(table.nbytes(), 16);
  EXPECT_EQ(table.dtype(), DType::UInt8);
  ndarray as_float = table.view(DType::Float32);
  as_float.assign(asarray(std::vector<float>{1, 2, 3, 4}, Device::cuda(0)));
  const ndarray out = zeros({4}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  m.get_function("use_table")(1, 4, {out});
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(as_float.to_vector<float>(), (std::vector<float>{2, 3, 4, 5}));
  m.get_function("fill<float>")(1, 32, {out, 0.25, 4});
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>(4, 0.25f)));
  EXPECT_THROW(m.get_global("nope"), CudaError);
  EXPECT_THROW(m.get_function("nope"), CudaError);
}

TEST(RawModuleGpu, BinaryFromNvrtc) {
  SKIP_WITHOUT_GPU();
  TempDir dir;
  const int arch = std::stoi(cuda_compute_capability(0));
  write(dir.path() / "saxpy.cubin", RawModule(kSaxpy).cuda_binary(arch).cubin);
  const RawKernel k = RawModule::from_file(dir.path() / "saxpy.cubin").get_function("saxpy");
  EXPECT_FALSE(k.declared_params().has_value());
  const ndarray x = full({64}, 1.0f, {.dtype = DType::Float32, .device = Device::cuda(0)});
  const ndarray y = zeros({64}, {.dtype = DType::Float32, .device = Device::cuda(0)});
  k(1, 64, {3.0, x, y, 64});  // sizes from the driver: float a and int n take 4 bytes
  EXPECT_EQ(y.to_vector<float>(), std::vector<float>(64, 3.0f));
}

TEST(RawKernelGpu, CooperativeGridSync) {
  SKIP_WITHOUT_GPU();
  const RawKernel k(R"(
    #include <cooperative_groups.h>
    extern "C" __global__ void two_phase(int* x, int* out, int n) {
      cooperative_groups::grid_group g = cooperative_groups::this_grid();
      int i = (int)g.thread_rank();
      if (i < n) x[i] = i;
      g.sync();
      if (i < n) out[i] = x[n - 1 - i];
    })",
                    "two_phase", {.enable_cooperative_groups = true});
  const int n = 4 * 128;
  const ndarray x = zeros({n}, {.dtype = DType::Int32, .device = Device::cuda(0)});
  const ndarray out = zeros({n}, {.dtype = DType::Int32, .device = Device::cuda(0)});
  k(4, 128, {x, out, n});
  const std::vector<std::int32_t> got = out.to_vector<std::int32_t>();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], n - 1 - i) << i;
}

}  // namespace
}  // namespace cunp
