// main() for tests run under mpiexec: MPI session around GoogleTest; only rank 0 prints results.
#include <gtest/gtest.h>

#include "loom/comm/communicator.hpp"

int main(int argc, char** argv) {
  loom::comm::Session mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (loom::comm::Communicator::world().rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int failed = RUN_ALL_TESTS();
  // Every rank must agree on the outcome, or mpiexec would hide a failure on rank > 0.
  return loom::comm::Communicator::world().max(double(failed)) > 0 ? 1 : 0;
}
