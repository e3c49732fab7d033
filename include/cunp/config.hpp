// cunp/config.hpp — versions of cunp and of the CUDA components it uses.
#pragma once

#include <string>

namespace cunp {

// cunp's version, e.g. "0.1.0".
std::string version();
// A multi-line report like cupy.show_config(): cunp, CUDA runtime/driver, the CUDA
// libraries, NVRTC, and each device's name, compute capability and memory.
std::string show_config();
// Versions as integers (1000 * major + 10 * minor, as CUDA reports them); 0 if unknown.
int cuda_runtime_version();
int cuda_driver_version();  // 0 without a driver
int nvrtc_version();        // e.g. 13000

}  // namespace cunp
