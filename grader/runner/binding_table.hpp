// The runner's table of bindings, filled by the API description of the exercise linked in.
#pragma once

#include "binding.hpp"

#include <map>
#include <string>
#include <vector>

namespace runner {

struct BindingTable {
  std::map<std::string, Binding> bindings;
  // Functions registered more than once. The harness registers each exactly once, so a second
  // registration can only come from the submission; the runner then refuses to run at all.
  std::vector<std::string> registered_twice;
};

BindingTable& binding_table();

}  // namespace runner
