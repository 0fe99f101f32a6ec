// The runner's side of api.hpp: the binding table, the meter and the feature maps.
#include "binding_table.hpp"

#include "feature_maps.hpp"

namespace runner {

BindingTable& binding_table() {
  // Built on first use: the API description's registrations run during static initialisation.
  static BindingTable table;
  return table;
}

}  // namespace runner

namespace api {

void register_exercise(const std::string&, std::vector<Function> functions) {
  runner::BindingTable& table = runner::binding_table();
  for (Function& f : functions)
    if (!table.bindings.emplace(f.schema.function, std::move(f.binding)).second)
      table.registered_twice.push_back(f.schema.function);
}

// The heap meter around the student's call. No clock here: a clock in this process is one the
// student's code could skew, so the time rule takes CPU time from the supervisor instead.
void metered(const std::function<void()>& call) { runner::metered(call); }

FeatureMap feature_map(const json& spec) { return runner::feature_map_from_spec(spec); }

}  // namespace api
