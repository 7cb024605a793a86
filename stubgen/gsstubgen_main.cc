// gsstubgen: GRID superscalar IDL -> master stubs and worker program.
#include <iostream>
#include <string>
#include <vector>

#include "stubgen/gsstubgen_cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return gs::RunGsstubgen(args, std::cout, std::cerr);
}
