// The runner's side of an exercise: how to call each API function from a request's arguments
// and turn what it returns into a reply. One file per exercise in grader/bindings/. The runner
// contains the student's code and this harness; it has no reference code in it.
#pragma once

#include "../common/wire.hpp"

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

namespace runner {

using json = nlohmann::json;

// What a binding reports besides the outputs: which inputs the call changed.
struct CallRecord {
  std::vector<std::string> inputs_changed;
  // Compare an input after the call with the copy taken before it, bit for bit.
  void watch(const std::string& name, const Eigen::MatrixXd& before, const Eigen::MatrixXd& after);
  void watch(const std::string& name, const Eigen::VectorXd& before, const Eigen::VectorXd& after);
};

// Runs `student_call` with the heap meter on; only what happens inside counts toward the
// peak. Use it around the student's function and nothing else.
void metered(const std::function<void()>& student_call);

// A binding: decode the call's arguments, call the student's function once through
// metered(), record changed inputs, return the outputs as json.
using Binding = std::function<json(const json& call, CallRecord& record)>;

struct BindingRegistrar {
  BindingRegistrar(const std::string& function, Binding binding);
};

}  // namespace runner
