// src/profiler/profiler.cpp — cunp/profiler.hpp on NVTX3 (header-only: the calls reach a
// profiler's injection library when one is attached, and return at once otherwise).
#include "cunp/profiler.hpp"

#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <array>

#include "cuda/check.hpp"

namespace cunp::profiler {

void range_push(const std::string& message, std::uint32_t argb) {
  if (argb == 0) {
    nvtxRangePushA(message.c_str());
    return;
  }
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = argb;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  nvtxRangePushEx(&attributes);
}

void range_pop() { nvtxRangePop(); }

std::uint32_t palette_color(int color_id) {
  static constexpr std::array<std::uint32_t, 7> kColors = {0xff00ff00, 0xff0000ff, 0xffffff00, 0xffff00ff,
                                                           0xff00ffff, 0xffff0000, 0xffffffff};
  const int n = static_cast<int>(kColors.size());
  return kColors[static_cast<std::size_t>(((color_id % n) + n) % n)];
}

void start() { cuda::check_cuda(cudaProfilerStart(), "cudaProfilerStart"); }

void stop() { cuda::check_cuda(cudaProfilerStop(), "cudaProfilerStop"); }

}  // namespace cunp::profiler
