// The judge's table of API schemas (see api_schemas.hpp).
#include "api_schemas.hpp"

#include <map>
#include <stdexcept>
#include <utility>

namespace api {

namespace {

struct Table {
  std::vector<std::pair<std::string, std::vector<Schema>>> exercises;  // in registration order
  std::map<std::string, Schema> functions;
  std::map<std::string, ReferenceBinder> references;
};

Table& table() {
  static Table t;  // built on first use: the descriptions register during static init
  return t;
}

}  // namespace

void register_exercise(const std::string& exercise, std::vector<Function> functions) {
  std::vector<Schema> schemas;
  for (Function& f : functions) {
    if (!table().functions.emplace(f.schema.function, f.schema).second)
      throw std::logic_error("api: " + f.schema.function + " is described twice");
    schemas.push_back(std::move(f.schema));
  }
  table().exercises.emplace_back(exercise, std::move(schemas));
}

// The judge calls reference functions only, without a heap meter.
void metered(const std::function<void()>& call) { call(); }

std::vector<Schema> exercise_schemas(const std::string& exercise) {
  for (const auto& [name, schemas] : table().exercises)
    if (name == exercise) return schemas;
  return {};
}

const Schema& schema_of(const std::string& function) {
  const auto it = table().functions.find(function);
  if (it == table().functions.end()) throw std::out_of_range("api: no function " + function);
  return it->second;
}

std::string check_request(const json& request) {
  const std::string function = request.at("function").get<std::string>();
  const auto it = table().functions.find(function);
  if (it == table().functions.end()) return "no API function \"" + function + "\"";
  const Schema& s = it->second;
  const json& calls = request.at("calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    for (const auto& [key, value] : calls[i].items()) {
      bool known = false;
      for (const Argument& a : s.arguments) known |= a.name == key;
      if (!known)
        return "call " + std::to_string(i) + " of " + function + " has an unknown argument \"" +
               key + "\"";
    }
    for (const Argument& a : s.arguments)
      if (a.fallback.is_null() && !calls[i].contains(a.name))
        return "call " + std::to_string(i) + " of " + function + " lacks the argument \"" + a.name +
               "\"";
  }
  return "";
}

References::References(std::initializer_list<std::pair<std::string, ReferenceBinder>> functions) {
  for (const auto& [name, binding] : functions)
    if (!table().references.emplace(name, binding).second)
      throw std::logic_error("api: two references for " + name);
}

json call_reference(const std::string& function, const json& call) {
  const auto it = table().references.find(function);
  if (it == table().references.end()) throw std::out_of_range("api: no reference for " + function);
  CallRecord record;
  return it->second()(call, record);
}

void describe(std::ostream& out) {
  for (const auto& [exercise, schemas] : table().exercises) {
    out << exercise << ":\n";
    for (const Schema& s : schemas) {
      out << "  " << s.function << "(";
      for (std::size_t i = 0; i < s.arguments.size(); ++i) {
        const Argument& a = s.arguments[i];
        out << (i ? ", " : "") << '"' << a.name << "\": " << s.kinds[i];
        if (!a.fallback.is_null()) out << " = " << a.fallback.dump();
      }
      out << ") -> {";
      for (std::size_t i = 0; i < s.results.size(); ++i)
        out << (i ? ", " : "") << '"' << s.results[i] << '"';
      out << "}";
      if (!s.watched.empty()) {
        out << "; must not change:";
        for (const auto& w : s.watched) out << ' ' << w;
      }
      out << "\n";
    }
  }
}

}  // namespace api
