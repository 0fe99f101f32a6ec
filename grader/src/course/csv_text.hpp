// Small text helpers shared by the gradebook's files (csv_text.cpp): a CSV line, a number as
// the exports print it, a roster header's key. csv_field and parse_csv are in gradebook.hpp.
#pragma once

#include "gradebook.hpp"

#include <string>
#include <vector>

namespace grader::gradebook {

std::string number(double x);            // rounded to 6 decimals, then 6 significant digits: "2.5"
std::string trim(const std::string& s);  // without leading and trailing spaces and line ends
std::string header_key(const std::string& s);  // "Student ID", "STUDENT-ID" -> "student id"
std::string line_of(const std::vector<std::string>& fields);  // one CSV line, with its '\n'
std::string join_names(const std::vector<std::string>& v);    // "a b c"

}  // namespace grader::gradebook
