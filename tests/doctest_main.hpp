// The main() of every doctest program of the kit's tests (each folder's main.cpp includes this
// once). Two additions to doctest's own:
// - a test case that called grader_test::skip_test() and did not fail makes the program exit
//   with the skip code (77), which CTest reports as skipped (SKIP_RETURN_CODE);
// - a run in which no test case ran at all fails. CTest runs each test case by its name; a name
//   that does not select anything (a ';' in a TEST_CASE name splits it for CTest, say) would
//   otherwise pass without testing anything.
#pragma once

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "skip.hpp"

#include <iostream>

namespace grader_test {

struct CountingListener : doctest::IReporter {
  static inline int started = 0;
  explicit CountingListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++started; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace grader_test

DOCTEST_REGISTER_LISTENER("count_test_cases", 1, grader_test::CountingListener);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;  // --list-test-cases, --help and the like
  if (result != 0) return result;
  if (grader_test::CountingListener::started == 0) {
    std::cout << "FAILED: no test case ran (does the test case name select one?)\n";
    return 1;
  }
  if (grader_test::skipped) return grader_test::kSkipExitCode;
  return 0;
}
