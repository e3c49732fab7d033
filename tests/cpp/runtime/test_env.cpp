// tests/cpp/runtime/test_env.cpp — cunp's environment variables fall back to CuPy's names
// (src/runtime/env.hpp): CUNP_<name> wins when set, even empty; else CUPY_<name>.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/env.hpp"

namespace cunp {
namespace {

TEST(Env, CunpNameWinsThenCupyName) {
  ::unsetenv("CUNP_TEST_ENV_VAR");
  ::unsetenv("CUPY_TEST_ENV_VAR");
  EXPECT_EQ(env_or_cupy("TEST_ENV_VAR"), nullptr);
  ::setenv("CUPY_TEST_ENV_VAR", "from-cupy", 1);
  ASSERT_NE(env_or_cupy("TEST_ENV_VAR"), nullptr);
  EXPECT_EQ(std::string(env_or_cupy("TEST_ENV_VAR")), "from-cupy");
  ::setenv("CUNP_TEST_ENV_VAR", "from-cunp", 1);
  EXPECT_EQ(std::string(env_or_cupy("TEST_ENV_VAR")), "from-cunp");
  ::setenv("CUNP_TEST_ENV_VAR", "", 1);  // set but empty: still cunp's
  EXPECT_EQ(std::string(env_or_cupy("TEST_ENV_VAR")), "");
  ::unsetenv("CUNP_TEST_ENV_VAR");
  ::unsetenv("CUPY_TEST_ENV_VAR");
}

}  // namespace
}  // namespace cunp
