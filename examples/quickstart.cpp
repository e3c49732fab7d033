#include <cunp/cunp.hpp>
#include <iostream>

int main() {
  using namespace cunp;
  ndarray a = arange(12, {.dtype = DType::Float32}).reshape({3, 4});
  a.view({slice(1, std::nullopt), slice(std::nullopt, std::nullopt, 2)}).fill(7);
  ndarray b = a.T().astype(DType::Float64);              // on the current device
  std::cout << b << "\n" << b.device().str() << "\n";   // NumPy's repr
  std::vector<double> host = b.copy().to_vector<double>();
  {
    DeviceGuard on_cpu(Device::cpu());                   // scoped device choice
    ndarray c = zeros({2, 2}, {.dtype = DType::Int32});
  }
}
