# The Debian package, made by `cpack -G DEB` in the build directory
# (scripts/package.sh makes it and the relocatable bundle). One package,
# gsrt: tools, libgsrt, headers, the CMake package, man pages and docs. Its
# dependencies are the Debian runtime packages dpkg-shlibdeps finds from
# what the installed files link (libssh-4, libyaml-cpp0.7, libsqlite3-0,
# libssl3, libglpk40, ...); building an application also needs a C++
# compiler and CMake, which it recommends.
set(CPACK_PACKAGE_NAME gsrt)
set(CPACK_PACKAGE_VENDOR "the gsrt developers")
set(CPACK_PACKAGE_CONTACT "gsrt developers <gsrt@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GRID superscalar runtime: sequential C++ programs run as jobs on many hosts")
set(CPACK_PACKAGE_DESCRIPTION
    "gsrt runs the functions an IDL file declares as jobs on local cores, ssh hosts and Slurm or PBS clusters, finding the parallelism from their file arguments. It installs gsstubgen, the gsrt, gsdeploy and gsrt-sim tools, gsrt-agent, libgsrt with its headers and CMake package (find_package(gsrt)), man pages and the manuals in /usr/share/doc/gsrt.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "bash")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, cmake, make | ninja-build")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openssh-server, slurm-wlm, munge")
set(CPACK_GENERATOR DEB)
include(CPack)
