// The plot helper's report of what gnuplot did: a picture is announced only when gnuplot
// succeeded, and a failure is said as such (the table never needs the picture). A stand-in
// `gnuplot` first on PATH exits with the status asked for, so the real one (or its absence)
// does not matter. Each doctest case runs in its own process under CTest, so the changed PATH
// and the helper's cached "gnuplot found" stay within this case. Cost: well under a second.
#include "lab_support.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace linlab;
namespace fs = std::filesystem;

namespace {

std::string plot_line(const Options& opt) {
  Plot p;
  p.stem = "tiny";
  p.title = "two points";
  p.series = {Series{"line", {1.0, 2.0}, {1.0, 4.0}}};
  std::ostringstream os;
  write_plot(opt, p, os);
  return os.str();
}

}  // namespace

TEST_CASE("plots: gnuplot's failure is reported, never announced as a written picture") {
  const fs::path dir =
      fs::temp_directory_path() / ("linattn-lab-plot-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  // The stand-in fails when the file fail-next exists in the output folder, else succeeds.
  const fs::path fake = dir / "bin" / "gnuplot";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\n[ -e '" << (dir / "out" / "fail-next").string() << "' ] && exit 1\nexit 0\n";
  }
  REQUIRE(::chmod(fake.c_str(), 0755) == 0);
  const char* old = std::getenv("PATH");
  const std::string old_path = old ? old : "/usr/bin:/bin";
  REQUIRE(::setenv("PATH", ((dir / "bin").string() + ":" + old_path).c_str(), 1) == 0);

  Options opt;
  opt.out_dir = (dir / "out").string();
  opt.plots = true;
  const std::string svg = (dir / "out" / "tiny.svg").string();
  const std::string gp = (dir / "out" / "tiny.gp").string();

  const std::string ok = plot_line(opt);
  CHECK(ok == "  plot: " + svg + "\n");

  { std::ofstream(dir / "out" / "fail-next") << ""; }
  const std::string failed = plot_line(opt);
  CHECK(failed == "  plot: gnuplot failed on " + gp + " (the table above does not need it)\n");
  CHECK(failed.find(svg) == std::string::npos);

  ::setenv("PATH", old_path.c_str(), 1);
  fs::remove_all(dir);
}
