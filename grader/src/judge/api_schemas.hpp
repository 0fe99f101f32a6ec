// The judge's side of grader/common/api.hpp: the schemas of every exercise's API functions,
// as the API descriptions at the top of the checks files registered them.
#pragma once

#include "../../common/api.hpp"

#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace api {

// The functions of one exercise, in the order of its description; empty if none registered.
std::vector<Schema> exercise_schemas(const std::string& exercise);
// The schema of one function; throws std::out_of_range for an unknown one.
const Schema& schema_of(const std::string& function);
// Checks that a request's calls give only arguments the function takes and every argument it
// needs. Returns the first problem, or an empty string.
std::string check_request(const json& request);
// The wire format of every registered function, one paragraph each (`--describe-api`).
void describe(std::ostream& out);

// Oracle side: a reference function of the same signature, called the way a runner calls the
// student's (same argument names and defaults, same result names). In an exercise's oracle file
// (exercises/<ex>/.meta/oracle/oracle.cpp), with the reference library's crossover_T:
//   static const api::References refs{api::reference("crossover_T", &crossover_T)};
// The binding is made at the call: the API description is another file, whose static
// initialisation may come after this one's.
using ReferenceBinder = std::function<Binding()>;
template <class R, class... A>
std::pair<std::string, ReferenceBinder> reference(const std::string& function, R (*fn)(A...)) {
  return {function, [function, fn] {
            const Schema& s = schema_of(function);
            if (s.arguments.size() != sizeof...(A))
              throw std::logic_error("api: the reference for " + function +
                                     " takes another number of arguments");
            return make_binding(s, fn);
          }};
}
struct References {
  References(std::initializer_list<std::pair<std::string, ReferenceBinder>> functions);
};
// The reference's result of one call, as a runner would reply it; throws std::out_of_range
// if no reference was registered for the function.
json call_reference(const std::string& function, const json& call);

}  // namespace api
