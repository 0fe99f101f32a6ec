// The kit's exercises in the order of the hand-outs, read from their manifests as the build
// reads them (CMakeLists.txt): each folder ROOT/exercises/<name>/ with a .meta/config.json,
// sorted by its "order". A test that takes its exercises from here covers a new exercise the day
// its folder is copied in.
#pragma once

#include <nlohmann/json.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kit_exercises {

inline std::vector<std::string> in_order(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::pair<long, std::string>> found;
  for (const fs::directory_entry& dir : fs::directory_iterator(fs::path(root) / "exercises")) {
    const fs::path manifest = dir.path() / ".meta" / "config.json";
    if (!fs::is_regular_file(manifest)) continue;
    const nlohmann::json config = nlohmann::json::parse(std::ifstream(manifest));
    found.emplace_back(config.at("order").get<long>(), dir.path().filename().string());
  }
  if (found.empty()) throw std::runtime_error(root + "/exercises: no exercise has a manifest");
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (const auto& entry : found) names.push_back(entry.second);
  return names;
}

}  // namespace kit_exercises
