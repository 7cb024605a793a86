// Runs MPI programs as operations (tests/mpi_test.sh):
//   mpi local   two 4-rank jobs at once on one host
//   mpi nodes   two 4-rank jobs at once, 2 ranks on each of 2 nodes
//   mpi crash   a job whose rank 1 aborts
//   mpi node-lost  one 4-rank job over 2 nodes that takes 10 s
//   mpi nodes-srun  as nodes, the ranks started by srun
//   mpi allocation  as nodes, one job by mpirun and one by srun, on gangs
//                   of allocation nodes gsrt places
//   mpi allocation-node-lost  as node-lost, on a gang of allocation nodes
// The host files are compared apart: where ranks run is not the program's
// result.
#include "mpi.h"

#include <gs/gs.h>

#include <cstring>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "local";
  if (GS_On() != 0) return 1;
  if (std::strcmp(mode, "crash") == 0) {
    crash("crash.txt", "crash.hosts");
  } else if (std::strcmp(mode, "node-lost") == 0 ||
             std::strcmp(mode, "allocation-node-lost") == 0) {
    parts_slowly("a.txt", "a.hosts");
  } else if (std::strcmp(mode, "nodes-srun") == 0) {
    parts_by_srun("a.txt", "a.hosts");
    parts_by_srun("b.txt", "b.hosts");
  } else if (std::strcmp(mode, "allocation") == 0) {
    parts_on_nodes("a.txt", "a.hosts");
    parts_by_srun("b.txt", "b.hosts");
  } else if (std::strcmp(mode, "nodes") == 0) {
    parts_on_nodes("a.txt", "a.hosts");
    parts_on_nodes("b.txt", "b.hosts");
  } else {
    parts("a.txt", "a.hosts");
    parts("b.txt", "b.hosts");
  }
  return GS_Off(0) == 0 ? 0 : 1;
}
