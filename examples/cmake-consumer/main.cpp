// examples/cmake-consumer/main.cpp — built against an installed cunp through
// find_package(cunp CONFIG) (see CMakeLists.txt beside it): prints sum(sqrt(arange(10)))
// on the default device.
#include <cstdio>

#include <cunp/cunp.hpp>

int main() {
  const cunp::ndarray a = cunp::arange(10.0);
  const cunp::ndarray s = cunp::sum(cunp::sqrt(a));
  const double v = s.item().to_double();
  std::printf("sum(sqrt(arange(10))) = %s on %s\n", s.str().c_str(), s.device().str().c_str());
  return v > 19.30 && v < 19.31 ? 0 : 1;
}
