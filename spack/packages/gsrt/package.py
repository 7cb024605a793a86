# Spack recipe for gsrt (docs/install.md, "With Spack"). Use it from this
# repository as a Spack package repository:
#   spack repo add <gsrt clone>/spack
#   spack install gsrt            # or gsrt+tests, gsrt~simulator
# tests/spack_recipe_test.py checks that its dependencies are exactly what
# the CMake build looks for.
import os

from spack.package import *

# The clone this recipe lives in (spack/packages/gsrt/ below its top): Spack
# fetches gsrt from it, so the recipe builds the checked-out sources.
_CLONE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Gsrt(CMakePackage):
    """GRID superscalar runtime: a sequential C++ program's functions run as
    jobs on local cores, ssh hosts and Slurm or PBS clusters."""

    homepage = "file://" + _CLONE
    git = "file://" + _CLONE

    version("main", branch="main")

    variant("simulator", default=True,
            description="Build gsrt-sim, the papers' experiments (needs GLPK)")
    variant("tests", default=False,
            description="Build the tests (ctest; they start sshd and Slurm)")
    variant("bench", default=False, description="Build the benchmarks")
    variant("man", default=True,
            description="Make the tools' man pages with help2man")

    conflicts("~simulator", when="+tests",
              msg="the tests run the simulator")
    conflicts("~simulator", when="+bench",
              msg="the benchmarks run the simulator")

    depends_on("cmake@3.22:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("help2man", type="build", when="+man")

    depends_on("boost@1.81:")
    depends_on("sqlite@3:")
    depends_on("yaml-cpp@0.7:")
    depends_on("nlohmann-json@3:")
    depends_on("libssh@0.10:")
    depends_on("openssl@3:")
    depends_on("cli11@2:")
    depends_on("glpk", when="+simulator")
    depends_on("googletest", when="+tests")
    depends_on("benchmark", when="+bench")
    depends_on("mpi", when="+bench")  # mpi_bench: an @MPI job vs mpirun

    def cmake_args(self):
        return [
            self.define_from_variant("GSRT_BUILD_SIM", "simulator"),
            self.define_from_variant("GSRT_BUILD_TESTS", "tests"),
            self.define_from_variant("GSRT_BUILD_BENCH", "bench"),
            self.define_from_variant("GSRT_MAN_PAGES", "man"),
        ]
