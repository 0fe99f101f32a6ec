// An exercise's API, described once: for each function, its C++ signature (taken from the
// kit's header by the compiler), the names of its arguments in a request, their defaults, and
// the names of its results in a reply. The description is the exercise's
// exercises/<ex>/.meta/api.cpp, compiled on both sides:
//  - in the runner harness (LINATTN_RUNNER defined), where it becomes the binding that decodes
//    a call's arguments, calls the student's function once under the heap meter, watches the
//    inputs it must not change and encodes what came back;
//  - in the judge, where it is only a schema (no address of a student function is taken), used
//    to check requests, to print the wire format (`linattn-grade describe-api`), and, on the
//    oracle side, to call the reference function of the same signature the same way.
//
//   static const api::Exercise flops_api{"flops", {
//       api::function(LINATTN_SIGNATURE(attention_flops), {"T", "d_phi", "d_v", "order"},
//                     {"value"}),
//   }};
//
// Types an argument may have: Matrix, Vector (by value or const reference; both are watched),
// double, std::int64_t (Eigen::Index is the same type here), FeatureMap (sent as a "phi" spec,
// see wire.hpp), or an enum with an api::EnumNames specialization. A result is one of those
// (one name) or a struct with an api::Fields specialization (one name per field, in order).
#pragma once

#include "wire.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace api {

using json = nlohmann::json;
using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using FeatureMap = std::function<Matrix(const Matrix&)>;

// ---- the description -----------------------------------------------------------------------

struct Argument {
  std::string name;
  json fallback;  // null: the argument is required; otherwise the API's default
  Argument(const char* n) : name(n) {}  // NOLINT: a bare name reads best in the tables
  Argument(const char* n, json f) : name(n), fallback(std::move(f)) {}
};

struct Schema {
  std::string function;
  std::vector<Argument> arguments;
  std::vector<std::string> kinds;         // per argument: "matrix", "vector", "integer", ...
  std::vector<std::string> results;       // names of the reply's fields
  std::vector<std::string> result_kinds;  // per result, as `kinds`: what the judge accepts back
  std::vector<std::string> watched;       // arguments that must come back unchanged
};

// Which inputs a call changed (see watch, below).
struct CallRecord {
  std::vector<std::string> inputs_changed;
};

// A binding: one call's arguments in, its results out.
using Binding = std::function<json(const json& call, CallRecord& record)>;

struct Function {
  Schema schema;
  Binding binding;  // empty on the judge side
};

// Specialize for an enum argument: its wire names.
template <class E>
struct EnumNames;  // static std::vector<std::pair<std::string, E>> get();

// Specialize for a struct result: its fields in the order of the result names.
template <class S>
struct Fields;  // static auto of(const S& s) { return std::tie(s.a, s.b); }

// ---- what each side provides ---------------------------------------------------------------

// Runs the student's (or the reference's) call. The runner meters the heap inside; the judge
// just calls.
void metered(const std::function<void()>& call);
// The feature map a "phi" spec names. The runner builds its own; the oracle side uses the
// reference's maps.
FeatureMap feature_map(const json& spec);
// Registers an exercise's functions: as bindings in the runner, as schemas in the judge.
void register_exercise(const std::string& exercise, std::vector<Function> functions);

// ---- decoding arguments, encoding results --------------------------------------------------

// Everything the runner does around a student's call has internal linkage (an unnamed
// namespace): no symbol of it reaches the linker, so a submission's definition under the same
// name (an explicit specialization of make_binding, say) cannot take its place.
namespace {

// Compares an input bit for bit with the copy taken before the call. Bit for bit, so that a
// NaN written over a NaN, or -0.0 over 0.0, still counts as a change, and so does a matrix
// resized through const_cast.
template <class M>  // Matrix or Vector
void watch(CallRecord& record, const std::string& name, const M& before, const M& after) {
  const bool same = before.rows() == after.rows() && before.cols() == after.cols() &&
                    (before.size() == 0 ||
                     std::memcmp(before.data(), after.data(),
                                 static_cast<std::size_t>(before.size()) * sizeof(double)) == 0);
  if (!same && std::find(record.inputs_changed.begin(), record.inputs_changed.end(), name) ==
                   record.inputs_changed.end())
    record.inputs_changed.push_back(name);
}

template <class T>
struct is_struct_result : std::bool_constant<std::is_class_v<T> && !std::is_same_v<T, Matrix> &&
                                             !std::is_same_v<T, Vector>> {};

template <class T>
std::string kind() {
  if constexpr (std::is_same_v<T, Matrix>) return "matrix";
  else if constexpr (std::is_same_v<T, Vector>) return "vector";
  else if constexpr (std::is_same_v<T, double>) return "number";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "integer";
  else if constexpr (std::is_same_v<T, FeatureMap>) return "phi spec";
  else if constexpr (std::is_enum_v<T>) {
    std::string names;
    for (const auto& [name, value] : EnumNames<T>::get())
      names += (names.empty() ? "" : "|") + name;
    return names;
  } else {
    static_assert(!sizeof(T*), "api: an argument type the wire cannot carry");
  }
}

template <class T>
T decode(const json& j) {
  if constexpr (std::is_same_v<T, Matrix>) return wire::to_matrix(j);
  else if constexpr (std::is_same_v<T, Vector>) return wire::to_vector(j);
  else if constexpr (std::is_same_v<T, FeatureMap>) return feature_map(j);
  else if constexpr (std::is_enum_v<T>) {
    for (const auto& [name, value] : EnumNames<T>::get())
      if (j == name) return value;
    throw std::invalid_argument("not one of " + kind<T>() + ": " + j.dump());
  } else {
    return j.get<T>();
  }
}

template <class T>
json encode(const T& value) {
  if constexpr (std::is_same_v<T, Matrix>) return wire::from_matrix(value);
  else if constexpr (std::is_same_v<T, Vector>) return wire::from_vector(value);
  else return json(value);
}

template <class R>
json encode_result(const R& out, const std::vector<std::string>& names) {
  json reply = json::object();
  if constexpr (is_struct_result<R>::value) {
    const auto fields = Fields<R>::of(out);
    if (std::tuple_size_v<decltype(fields)> != names.size())
      throw std::logic_error("api: the result names and the struct's fields differ in number");
    std::size_t i = 0;
    std::apply([&](const auto&... field) { ((reply[names.at(i++)] = encode(field)), ...); },
               fields);
  } else {
    reply[names.at(0)] = encode(out);
  }
  return reply;
}

template <class T>
T argument(const json& call, const Argument& a) {
  if (call.contains(a.name)) return decode<T>(call.at(a.name));
  if (a.fallback.is_null())
    throw std::invalid_argument("the call has no argument \"" + a.name + "\"");
  return decode<T>(a.fallback);
}

template <class T>
constexpr bool is_watched = std::is_same_v<T, Matrix> || std::is_same_v<T, Vector>;

// The generic binding: decode every argument (outside the meter, so a malformed request is
// the harness's fault), hand the function working copies, call it once under the meter, then
// compare the copies with the originals and encode the result.
template <class R, class... A, std::size_t... I>
json call_bound(const Schema& s, R (*fn)(A...), const json& call, CallRecord& record,
                std::index_sequence<I...>) {
  const std::tuple<std::decay_t<A>...> given{argument<std::decay_t<A>>(call, s.arguments[I])...};
  std::tuple<std::decay_t<A>...> working = given;
  std::optional<R> out;
  metered([&] { out.emplace(fn(std::get<I>(working)...)); });
  (([&] {
     if constexpr (is_watched<std::decay_t<A>>)
       watch(record, s.arguments[I].name, std::get<I>(given), std::get<I>(working));
   }()),
   ...);
  return encode_result(*out, s.results);
}

template <class R, class... A>
Binding make_binding(const Schema& s, R (*fn)(A...)) {
  if (fn == nullptr) throw std::logic_error("api: no function to bind for " + s.function);
  return [s, fn](const json& call, CallRecord& record) {
    return call_bound(s, fn, call, record, std::index_sequence_for<A...>{});
  };
}

}  // namespace

// The judge's stand-in for a function's address: its type only.
template <class F>
struct Signature {};

// The kind of each result: one for a plain type, one per field for a struct.
template <class Tuple, std::size_t... I>
std::vector<std::string> field_kinds(std::index_sequence<I...>) {
  return {kind<std::decay_t<std::tuple_element_t<I, Tuple>>>()...};
}

template <class R>
std::vector<std::string> result_kinds() {
  if constexpr (is_struct_result<R>::value) {
    using Tied = decltype(Fields<R>::of(std::declval<const R&>()));
    return field_kinds<Tied>(std::make_index_sequence<std::tuple_size_v<Tied>>{});
  } else {
    return {kind<R>()};
  }
}

template <class R, class... A>
Schema schema(const char* name, std::vector<Argument> args, std::vector<std::string> results) {
  if (args.size() != sizeof...(A))
    throw std::logic_error(std::string("api: ") + name + " takes " + std::to_string(sizeof...(A)) +
                           " arguments, the description names " + std::to_string(args.size()));
  Schema s{
      name, std::move(args), {kind<std::decay_t<A>>()...}, std::move(results), result_kinds<R>(),
      {}};
  if (s.result_kinds.size() != s.results.size())
    throw std::logic_error(std::string("api: ") + name + " returns " +
                           std::to_string(s.result_kinds.size()) +
                           " results, the description names " + std::to_string(s.results.size()));
  const bool watched[] = {is_watched<std::decay_t<A>>..., false};
  for (std::size_t i = 0; i < sizeof...(A); ++i)
    if (watched[i]) s.watched.push_back(s.arguments[i].name);
  return s;
}

// Runner side: the student's function, bound.
template <class R, class... A>
Function function(const char* name, R (*fn)(A...), std::vector<Argument> args,
                  std::vector<std::string> results) {
  Schema s = schema<R, A...>(name, std::move(args), std::move(results));
  Binding b = make_binding(s, fn);
  return {std::move(s), std::move(b)};
}

// Judge side: the schema alone.
template <class R, class... A>
Function function(const char* name, Signature<R (*)(A...)>, std::vector<Argument> args,
                  std::vector<std::string> results) {
  return {schema<R, A...>(name, std::move(args), std::move(results)), {}};
}

// One per exercise, at the top of its checks file.
struct Exercise {
  Exercise(const std::string& name, std::vector<Function> functions) {
    register_exercise(name, std::move(functions));
  }
};

}  // namespace api

// The runner takes the student's function's address; the judge only its type, so the judge
// never links a student function.
#ifdef LINATTN_RUNNER
#define LINATTN_SIGNATURE(name) #name, &::linattn::name
#else
#define LINATTN_SIGNATURE(name) \
#name, ::api::Signature < decltype(&::linattn::name)> {}
#endif
