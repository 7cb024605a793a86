#!/usr/bin/env python3
"""The Spack recipe (spack/packages/gsrt/package.py) depends on exactly what
the CMake build looks for, under the matching variant.

Runs the recipe with a stand-in for Spack's directives that records them,
reads every find_package / pkg_check_modules / find_library / find_program
of the CMake files with the if() around it, and compares the two. A new
CMake dependency fails here until the recipe (and the table below) names
it. Also: no find_* call of the build names a /usr path, so a build finds
its dependencies in a user prefix (CMAKE_PREFIX_PATH, Spack, modules).

    spack_recipe_test.py SOURCE_DIR
"""
import re
import sys
import types
from pathlib import Path

# CMake's name of a dependency -> Spack's package (None: the system's).
CMAKE_TO_SPACK = {
    "Threads": None,
    "Boost": "boost",
    "SQLite3": "sqlite",
    "yaml-cpp": "yaml-cpp",
    "nlohmann_json": "nlohmann-json",
    "PkgConfig": "pkgconfig",
    "libssh": "libssh",
    "OpenSSL": "openssl",
    "CLI11": "cli11",
    "glpk": "glpk",
    "glpk.h": "glpk",
    "GTest": "googletest",
    "benchmark": "benchmark",
    "help2man": "help2man",
    "MPI": "mpi",
}
# The CMake option that guards a dependency -> the recipe's variant.
OPTION_TO_VARIANT = {
    "GSRT_BUILD_SIM": "+simulator",
    "GSRT_BUILD_TESTS": "+tests",
    "GSRT_BUILD_BENCH": "+bench",
    "GSRT_MAN_PAGES": "+man",
}
# Files added under an option (add_subdirectory inside if()).
FILE_OPTION = {"bench/CMakeLists.txt": "GSRT_BUILD_BENCH"}
CALL = re.compile(
    r"\b(find_package|pkg_check_modules|find_library|find_path|find_program)"
    r"\(([^)]*)\)")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def recipe_dependencies(recipe):
    """{spack package: when} from running the recipe's class body."""
    recorded = {}
    stub = types.ModuleType("spack.package")

    class CMakePackage:
        pass

    def depends_on(spec, when=None, type=None):
        name = re.match(r"[a-z0-9-]+", spec).group(0)
        recorded[name] = when

    def ignore(*args, **kwargs):
        pass

    stub.CMakePackage = CMakePackage
    stub.depends_on = depends_on
    for directive in ("variant", "version", "conflicts", "maintainers",
                      "license"):
        setattr(stub, directive, ignore)
    stub.__all__ = [n for n in vars(stub) if not n.startswith("_")]
    sys.modules["spack"] = types.ModuleType("spack")
    sys.modules["spack.package"] = stub
    code = compile(recipe.read_text(), str(recipe), "exec")
    exec(code, {"__file__": str(recipe), "__name__": "gsrt_recipe"})
    recorded.pop("cmake", None)  # the build tool itself
    return recorded


def cmake_dependencies(src):
    """{spack package: when} from the CMake files, via the tables above."""
    found = {}
    files = [src / "CMakeLists.txt"] + sorted((src / "cmake").glob("*.cmake"))
    files += sorted(src.glob("*/CMakeLists.txt")) + sorted(
        src.glob("*/*/CMakeLists.txt"))
    for path in files:
        rel = str(path.relative_to(src))
        if rel.startswith(("tests/", "build")):
            continue  # tests/outoftree is an application using gsrt
        options = [FILE_OPTION[rel]] if rel in FILE_OPTION else []
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            opened = re.match(r"\s*if\((\w+)\)", code)
            if opened:
                options.append(opened.group(1))
            elif re.match(r"\s*if\(", code):
                options.append(None)
            elif re.match(r"\s*endif\(", code):
                options.pop()
            for call, args in CALL.findall(code):
                words = args.split()
                if "/usr" in args:
                    fail(f"{rel}:{number}: {call} names a /usr path: a build "
                         "in a user prefix would not find it")
                if call == "find_package":
                    name = words[0]
                elif call == "pkg_check_modules":
                    name = [w for w in words[1:] if w.isupper() is False
                            and w not in ("REQUIRED", "IMPORTED_TARGET")][0]
                else:
                    name = words[1]
                if name == "gsrt":
                    continue
                if name not in CMAKE_TO_SPACK:
                    fail(f"{rel}:{number}: {call}({name}) is not in the "
                         "recipe: add it to spack/packages/gsrt/package.py "
                         "and to CMAKE_TO_SPACK in this test")
                package = CMAKE_TO_SPACK[name]
                if package is None:
                    continue
                guards = [OPTION_TO_VARIANT[o] for o in options
                          if o in OPTION_TO_VARIANT]
                found[package] = guards[-1] if guards else None
    return found


def main():
    src = Path(sys.argv[1])
    recipe = recipe_dependencies(src / "spack/packages/gsrt/package.py")
    cmake = cmake_dependencies(src)
    if set(recipe) != set(cmake):
        fail(f"the recipe depends on {sorted(set(recipe) - set(cmake))} that "
             f"CMake does not look for, and lacks "
             f"{sorted(set(cmake) - set(recipe))}")
    for package, when in sorted(cmake.items()):
        if recipe[package] != when:
            fail(f"{package}: CMake looks for it when {when or 'always'}, "
                 f"the recipe depends on it when {recipe[package] or 'always'}")
    print(f"OK: the recipe's {len(recipe)} dependencies are CMake's: "
          + ", ".join(f"{p}" + (f" ({w})" if w else "")
                      for p, w in sorted(recipe.items())))


if __name__ == "__main__":
    main()
