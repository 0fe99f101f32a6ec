// The binding table and CallRecord's comparisons.
#include "registry.hpp"

#include <algorithm>
#include <cstring>

namespace runner {

BindingTable& binding_table() {
  static BindingTable table;  // built on first use: registrars run during static init
  return table;
}

BindingRegistrar::BindingRegistrar(const std::string& function, Binding binding) {
  BindingTable& table = binding_table();
  if (!table.bindings.emplace(function, std::move(binding)).second)
    table.registered_twice.push_back(function);
}

namespace {

// Bit for bit, so that a NaN written over a NaN, or -0.0 over 0.0, still counts as a change,
// and a matrix resized through const_cast counts too.
bool same_bits(const double* a, const double* b, Eigen::Index n) {
  return n == 0 || std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(double)) == 0;
}

void note(std::vector<std::string>& changed, const std::string& name) {
  if (std::find(changed.begin(), changed.end(), name) == changed.end()) changed.push_back(name);
}

}  // namespace

void CallRecord::watch(const std::string& name, const Eigen::MatrixXd& before,
                       const Eigen::MatrixXd& after) {
  if (before.rows() != after.rows() || before.cols() != after.cols() ||
      !same_bits(before.data(), after.data(), before.size()))
    note(inputs_changed, name);
}

void CallRecord::watch(const std::string& name, const Eigen::VectorXd& before,
                       const Eigen::VectorXd& after) {
  if (before.size() != after.size() || !same_bits(before.data(), after.data(), before.size()))
    note(inputs_changed, name);
}

}  // namespace runner
