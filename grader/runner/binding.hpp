// The runner's side of an exercise: the bindings that the exercise's API description
// (exercises/<ex>/.meta/api.cpp, compiled here with LINATTN_RUNNER)
// makes through grader/common/api.hpp. The runner contains the student's code and this
// harness; it has no reference code in it.
#pragma once

#include "../common/api.hpp"

#include <functional>

namespace runner {

using json = nlohmann::json;
using CallRecord = api::CallRecord;
using Binding = api::Binding;

// Runs `student_call` with the heap meter on; only what happens inside counts toward the
// peak. The bindings use it (as api::metered) around the student's function and nothing else.
void metered(const std::function<void()>& student_call);

}  // namespace runner
