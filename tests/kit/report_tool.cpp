// kit_report_tool: reads the grader's reports for the shell tests of this folder, so that they
// need no JSON tool of the system's.
//   kit_report_tool csv-row NAME REPORT.json  the gradebook row the report implies
//   kit_report_tool summary REPORT.json       score=S max=M checks=N hidden=H passed=P
//   kit_report_tool gradescope RESULTS.json   score=S tests=N hidden=H passed=P
//                                             output_has_fault=0|1 (hidden: the tests students
//                                             do not see yet)
//   kit_report_tool first-check REPORT.json   EXERCISE/CHECK SEED of the report's first check
//   kit_report_tool lost REPORT.json...       every check that lost points, with its status,
//                                             seed and message (what a failing test prints, so
//                                             that a CI log says which check it was)
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace {

json load(const char* path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(std::string("cannot read ") + path);
  return json::parse(f);
}

std::string number(double x) {  // as the gradebook writes numbers
  std::ostringstream o;
  o << x;
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "csv-row" && argc == 4) {
      const json r = load(argv[3]);
      std::cout << argv[2];
      for (const char* ex : {"flops", "causal", "random_features", "taylor", "memory"}) {
        double score = 0;
        for (const auto& e : r.at("exercises"))
          if (e.at("name") == ex) score = e.at("score").get<double>();
        std::cout << "," << number(score);
      }
      std::cout << "," << number(r.at("score").get<double>()) << ","
                << number(r.at("max_score").get<double>()) << "\n";
      return 0;
    }
    if (what == "summary" && argc == 3) {
      const json r = load(argv[2]);
      int checks = 0, hidden = 0, passed = 0;
      for (const auto& e : r.at("exercises"))
        for (const auto& c : e.at("checks")) {
          ++checks;
          hidden += c.value("visibility", "") != "visible";
          passed += c.at("status") == "passed";
        }
      std::cout << "score=" << number(r.at("score").get<double>())
                << " max=" << number(r.at("max_score").get<double>()) << " checks=" << checks
                << " hidden=" << hidden << " passed=" << passed << "\n";
      return 0;
    }
    if (what == "gradescope" && argc == 3) {
      const json r = load(argv[2]);
      int tests = 0, hidden = 0, passed = 0;
      for (const auto& t : r.at("tests")) {
        ++tests;
        hidden += t.value("visibility", "visible") !=
                  "visible";  // hidden, after_due_date, after_published
        passed += t.value("status", "") == "passed";
      }
      const bool fault = r.value("output", "").find("could not grade") != std::string::npos;
      std::cout << "score=" << number(r.at("score").get<double>()) << " tests=" << tests
                << " hidden=" << hidden << " passed=" << passed << " output_has_fault=" << fault
                << "\n";
      return 0;
    }
    if (what == "first-check" && argc == 3) {
      const json r = load(argv[2]);
      const json& e = r.at("exercises").at(0);
      const json& c = e.at("checks").at(0);
      std::cout << e.at("name").get<std::string>() << "/" << c.at("name").get<std::string>() << " "
                << c.at("seed").get<std::uint64_t>() << "\n";
      return 0;
    }
    if (what == "lost" && argc >= 3) {
      for (int i = 2; i < argc; ++i) {
        const json r = load(argv[i]);
        for (const auto& e : r.at("exercises"))
          for (const auto& c : e.at("checks")) {
            if (c.at("score").get<double>() >= c.at("max_score").get<double>()) continue;
            std::cout << argv[i] << ": " << e.at("name").get<std::string>() << "/"
                      << c.at("name").get<std::string>() << " " << c.at("status").get<std::string>()
                      << " " << number(c.at("score").get<double>()) << "/"
                      << number(c.at("max_score").get<double>())
                      << " seed=" << c.value("seed", std::uint64_t{0}) << "\n  "
                      << c.value("message", "") << "\n";
          }
      }
      return 0;
    }
    std::cerr << "usage: kit_report_tool csv-row NAME REPORT | summary REPORT | gradescope RESULTS "
                 "| first-check REPORT | lost REPORT...\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kit_report_tool: " << e.what() << "\n";
    return 1;
  }
}
