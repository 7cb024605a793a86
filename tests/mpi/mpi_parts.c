/* A small MPI program for the @MPI tests (tests/mpi_test.sh builds it with
 * mpicc):
 *   gsrt-mpi-parts MERGED HOSTS [crash|slow]
 * Each rank writes MERGED.part.R ("rank R of N"); after a barrier rank 0
 * merges the parts in rank order into MERGED, removes them, and writes
 * the host names the ranks ran on, one per line, sorted and unique, to
 * HOSTS. With `crash`, rank 1 says so on stderr and aborts; with `slow`,
 * every rank waits 10 s before the barrier (a node can be lost meanwhile). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kName = 256 };

static int Compare(const void* a, const void* b) { return strcmp(a, b); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0) fprintf(stderr, "usage: %s MERGED HOSTS [crash]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (argc > 3 && strcmp(argv[3], "crash") == 0 && rank == 1) {
    fprintf(stderr, "gsrt-mpi-parts: rank 1 crashing on purpose\n");
    fflush(stderr);
    abort();
  }
  char part[4096];
  snprintf(part, sizeof part, "%s.part.%d", argv[1], rank);
  FILE* f = fopen(part, "w");
  if (f == NULL || fprintf(f, "rank %d of %d\n", rank, size) < 0 ||
      fclose(f) != 0) {
    perror(part);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (argc > 3 && strcmp(argv[3], "slow") == 0) sleep(10);
  char host[kName] = {0};
  gethostname(host, sizeof host - 1);
  char* hosts = rank == 0 ? calloc((size_t)size, kName) : NULL;
  MPI_Gather(host, kName, MPI_CHAR, hosts, kName, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    FILE* out = fopen(argv[1], "w");
    if (out == NULL) {
      perror(argv[1]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < size; ++r) {
      snprintf(part, sizeof part, "%s.part.%d", argv[1], r);
      FILE* in = fopen(part, "r");
      if (in == NULL) {
        perror(part);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      char line[256];
      while (fgets(line, sizeof line, in) != NULL) fputs(line, out);
      fclose(in);
      remove(part);
    }
    fclose(out);
    qsort(hosts, (size_t)size, kName, Compare);
    FILE* h = fopen(argv[2], "w");
    for (int r = 0; h != NULL && r < size; ++r) {
      if (r == 0 || strcmp(hosts + r * kName, hosts + (r - 1) * kName) != 0)
        fprintf(h, "%s\n", hosts + r * kName);
    }
    if (h == NULL || fclose(h) != 0) {
      perror(argv[2]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    free(hosts);
  }
  MPI_Finalize();
  return 0;
}
