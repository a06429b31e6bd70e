// rocm-audit: the commands are the table of cli/commands.cc; see RunCli (cli/cli.cc).
#include <malloc.h>

#include <cstdio>
#include <new>

#include "cli/cli.h"

// Memory that runs out while the report is written (the audit catches its own, Audit) is a
// tool error, exit 2 as every other, never an abort.
int main(int argc, char** argv) {
  // One malloc arena: most of a run's allocations are the CMake evaluation's, on one thread;
  // a second arena, for the threads that read files, raises the peak memory of an audit of
  // package configs and buys no time (bench/cmake_evaluation.md).
  mallopt(M_ARENA_MAX, 1);
  try {
    return rocm_audit::RunCli(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("rocm-audit: error: memory ran out while writing the report (std::bad_alloc)\n", stderr);
    return 2;
  }
}
