/* The MPI no-op of mpi_bench: every rank starts MPI and ends it. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
