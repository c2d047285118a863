// loom's exceptions. The library throws; only apps/loom turns an exception into a message and an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace loom {

// A failure inside loom (a CUDA call, a file that cannot be written, a broken invariant).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input from the user (a parameter value, a missing input file, a malformed row): exit code 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void throw_error(const std::string& what, const char* file, int line);

}  // namespace loom

// LOOM_REQUIRE(condition, message): an internal invariant; throws loom::Error naming file and line.
#define LOOM_REQUIRE(condition, message)                                    \
  do {                                                                      \
    if (!(condition)) ::loom::throw_error((message), __FILE__, __LINE__);   \
  } while (0)
