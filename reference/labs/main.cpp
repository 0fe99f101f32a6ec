// linattn-lab: with no arguments lists the labs; `linattn-lab NAME [--out DIR] [--no-plot]`
// runs one; `linattn-lab all` runs them all; `linattn-lab --html DIR [NAME...]` writes the lab
// book (all labs, or those named, and the two widgets) to DIR/index.html.
#include "lab_book.hpp"
#include "labs.hpp"

#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#ifndef LINATTN_LABS_OUT
#define LINATTN_LABS_OUT "labs-out"
#endif

namespace {

void list(std::ostream& os) {
  os << "Labs (run one with: ./kit lab NAME [--out DIR] [--no-plot]; or ./kit lab all;\n"
        "the lab book, every lab and the section's two widgets as one page: ./kit lab --html "
        "DIR)\n\n";
  for (const linlab::Lab& lab : linlab::all_labs()) {
    std::string name = lab.name;
    std::string cell = lab.cell;
    name.resize(16, ' ');
    cell.resize(15, ' ');
    os << "  " << name << cell << lab.summary << '\n';
  }
  os << "\nPlots go to " << LINATTN_LABS_OUT << "/ unless --out DIR is given.\n";
}

int usage_error(const std::string& msg) {
  std::cerr << "linattn-lab: " << msg << "\n\n";
  list(std::cerr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  linlab::Options opt;
  opt.out_dir = LINATTN_LABS_OUT;
  std::string name, html_dir;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--html") {
      if (i + 1 >= argc) return usage_error("--html needs a folder");
      html_dir = argv[++i];
    } else if (arg.rfind("--html=", 0) == 0) {
      html_dir = arg.substr(7);
    } else if (arg == "--out") {
      if (i + 1 >= argc) return usage_error("--out needs a folder");
      opt.out_dir = argv[++i];
    } else if (arg.rfind("--out=", 0) == 0) {
      opt.out_dir = arg.substr(6);
    } else if (arg == "--no-plot") {
      opt.plots = false;
    } else if (arg == "-h" || arg == "--help" || arg == "list") {
      list(std::cout);
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      return usage_error("unknown option '" + arg + "'");
    } else if (!html_dir.empty()) {
      names.push_back(arg);
    } else if (name.empty()) {
      name = arg;
    } else {
      return usage_error("one lab at a time (got '" + name + "' and '" + arg + "')");
    }
  }
  if (!html_dir.empty()) {
    if (!name.empty()) names.insert(names.begin(), name);
    for (const std::string& n : names)
      if (!linlab::find_lab(n)) return usage_error("no lab named '" + n + "'");
    try {
      return linlab::write_lab_book(html_dir, std::cout, names);
    } catch (const std::exception& e) {
      std::cerr << "linattn-lab: the lab book failed: " << e.what() << '\n';
      return 1;
    }
  }
  if (name.empty()) {
    list(std::cout);
    return 0;
  }
  try {
    if (name == "all") {
      int status = 0;
      for (const linlab::Lab& lab : linlab::all_labs()) {
        if (lab.run(opt, std::cout) != 0) status = 1;
        std::cout << '\n';
      }
      return status;
    }
    const linlab::Lab* lab = linlab::find_lab(name);
    if (!lab) return usage_error("no lab named '" + name + "'");
    return lab->run(opt, std::cout);
  } catch (const std::exception& e) {
    std::cerr << "linattn-lab: " << name << " failed: " << e.what() << '\n';
    return 1;
  }
}
