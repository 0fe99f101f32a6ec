// What a check that crashed, ran out of time or memory, or threw says it tried: the same
// "Tried:" form as a failed comparison (arguments in the signature's order, shapes, which call
// of several), and what kind of crash it was, named from Eigen's assertion when there is one.
#include "../../grader/src/judge/call_text.hpp"
#include "../../grader/src/judge/crash_text.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>

namespace {

using api::json;

// causal_linear_attention_recurrent's schema, as its API description registers it.
api::Schema recurrent() {
  api::Schema s;
  s.function = "causal_linear_attention_recurrent";
  s.arguments = {"Q", "K", "V", "phi", {"eps", 1e-6}};
  s.kinds = {"matrix", "matrix", "matrix", "phi spec", "number"};
  return s;
}

json matrix(int rows, int cols) {
  return json{{"rows", rows}, {"cols", cols}, {"data", json::array()}};
}

json call(int T) {
  // Keys in an order unlike the signature's: the text must follow the signature.
  return json{{"V", matrix(T, 2)},
              {"K", matrix(T, 3)},
              {"Q", matrix(T, 3)},
              {"phi", json{{"name", "elu_plus_one"}}},
              {"eps", 0.5}};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("check messages: Tried names the arguments in the signature's order, with shapes") {
  const json request{{"calls", json::array({call(4)})}};
  CHECK(
      grader::tried_text(recurrent(), request, 7) ==
      "Tried: causal_linear_attention_recurrent(Q: 4 x 3, K: 4 x 3, V: 4 x 2, phi = elu_plus_one, "
      "eps = 0.5), seed 7.");
  json no_eps = call(4);
  no_eps.erase("eps");  // the API's default, said as such a call gets it
  CHECK(contains(grader::call_arguments(recurrent(), no_eps), "eps = 1e-06"));
}

TEST_CASE("check messages: Tried says which call of several, when the reply says it") {
  const json request{{"calls", json::array({call(1), call(4), call(9)})}};
  CHECK(
      grader::tried_text(recurrent(), request, 3, 1) ==
      "Tried: causal_linear_attention_recurrent(Q: 4 x 3, K: 4 x 3, V: 4 x 2, phi = elu_plus_one, "
      "eps = 0.5), call 2 of 3, seed 3.");
}

TEST_CASE(
    "check messages: Tried lists the calls it may have stopped in, runs of equal calls as one "
    "line") {
  json calls = json::array({call(1)});
  for (int i = 0; i < 40; ++i) calls.push_back(call(8));
  calls.push_back(call(64));
  const std::string text = grader::tried_text(recurrent(), json{{"calls", calls}}, 5);
  CHECK(contains(text, "Tried 42 calls, seed 5; it stopped in one of them:"));
  CHECK(contains(text, "\n  call 1: causal_linear_attention_recurrent(Q: 1 x 3,"));
  CHECK(contains(text, "\n  calls 2-41: causal_linear_attention_recurrent(Q: 8 x 3,"));
  CHECK(contains(text, "\n  call 42: causal_linear_attention_recurrent(Q: 64 x 3,"));
  CHECK_FALSE(contains(text, "call 3:"));
}

TEST_CASE("check messages: a crash in Eigen's block access is named before the check's guess") {
  const std::string printed =
      "runner: /usr/include/eigen3/Eigen/src/Core/Block.h:146: Eigen::Block<...>::Block(...): "
      "Assertion `startRow >= 0 && blockRows >= 0 && startRow <= xpr.rows() - blockRows && "
      "startCol >= 0 "
      "&& blockCols >= 0 && startCol <= xpr.cols() - blockCols' failed.\n";
  const std::string text =
      grader::crash_explanation(SIGABRT, printed, "the state used transposed.");
  const auto block = text.find("block access past the end of a matrix");
  const auto guess = text.find("Likely mistake: the state used transposed.");
  REQUIRE(block != std::string::npos);
  REQUIRE(guess != std::string::npos);
  CHECK(block < guess);
  CHECK_FALSE(contains(text, "name a shape mismatch"));
}

TEST_CASE("check messages: an index out of range and an abort of another kind are told apart") {
  const std::string index =
      "DenseCoeffsBase.h:366: Assertion `row >= 0 && row < rows() && col >= 0 && col < cols()' "
      "failed.";
  CHECK(contains(grader::crash_explanation(SIGABRT, index, ""), "index out of range"));
  const std::string product =
      "Product.h:97: Assertion `lhs.cols() == rhs.rows() && \"invalid matrix product\"' failed.";
  const std::string other = grader::crash_explanation(SIGABRT, product, "");
  CHECK(contains(other, "shape mismatch"));
  CHECK_FALSE(contains(other, "block access"));
  CHECK(contains(grader::crash_explanation(SIGSEGV, "", "hint"), "segmentation fault"));
  CHECK_FALSE(contains(grader::crash_explanation(SIGSEGV, "", "hint"), "Likely mistake"));
}
