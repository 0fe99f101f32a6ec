// exercises_stubgen [KIT_ROOT]: rewrites exercises/<name>/<name>.cpp from
// solutions/<name>/<name>.cpp for every exercise of the kit (its manifest) (the rules are in
// tests/exercises/README.md). Run it after editing a solution; the test exercises/single-source
// then passes again. KIT_ROOT defaults to the source tree this program was configured from.
#include "stub_source.hpp"

#include <iostream>

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : LINATTN_SOURCE_DIR;
  try {
    for (const auto& name : stubgen::exercises(root)) {
      const std::string stub =
          stubgen::derive_stub(stubgen::read_file(stubgen::solution_path(root, name)),
                               "solutions/" + name + "/" + name + ".cpp");
      const std::string path = stubgen::stub_path(root, name);
      std::string old;
      try {
        old = stubgen::read_file(path);
      } catch (const stubgen::Error&) {
      }
      if (old == stub) {
        std::cout << "unchanged  " << path << "\n";
      } else {
        stubgen::write_file(path, stub);
        std::cout << "written    " << path << "\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "exercises_stubgen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
