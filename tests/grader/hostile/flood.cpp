// Writes argv[1] MB to stdout and one line to stderr: the capture keeps a prefix, counts all.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
int main(int argc, char** argv) {
  const long mb = argc > 1 ? std::atol(argv[1]) : 20;
  std::string line(1023, 'x');
  line += '\n';
  for (long i = 0; i < mb * 1024; ++i) std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
  std::fprintf(stderr, "done\n");
  return 0;
}
