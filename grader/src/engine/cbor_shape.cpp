#include "cbor_shape.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace grader {

bool cbor_nesting_within(const std::string& bytes, std::size_t max_depth) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t at = 0;
  // For each open array or map: how many items it still holds.
  std::vector<std::uint64_t> open;
  std::uint64_t pending = 1;  // items still to read at the current level (the top: one)
  while (true) {
    while (pending == 0) {
      if (open.empty()) return at == n;  // the one top item is complete
      pending = open.back();
      open.pop_back();
    }
    if (at >= n) return false;
    const std::uint8_t head = p[at++];
    const unsigned major = head >> 5, info = head & 31;
    std::uint64_t arg = info;
    if (info >= 24 && info <= 27) {
      const std::size_t size = std::size_t{1} << (info - 24);
      if (n - at < size) return false;
      arg = 0;
      for (std::size_t i = 0; i < size; ++i) arg = (arg << 8) | p[at++];
    } else if (info > 27) {
      return false;  // indefinite lengths and reserved values: never written by wire::encode
    }
    --pending;
    switch (major) {
      case 0:
      case 1:
      case 7: break;  // integers, simple values and floats: no payload left
      case 2:
      case 3:  // byte and text strings
        if (n - at < arg) return false;
        at += static_cast<std::size_t>(arg);
        break;
      case 4:
      case 5: {  // arrays and maps: open a level
        const std::uint64_t items = major == 5 ? arg * 2 : arg;
        if (major == 5 && arg > (n - at)) return false;
        if (items > n - at) return false;  // every item takes at least one byte
        open.push_back(pending);
        if (open.size() > max_depth) return false;
        pending = items;
        break;
      }
      case 6:  // a tag: the item it tags follows, at this level
        ++pending;
        break;
    }
  }
}

namespace {

using json = nlohmann::json;

// What may stand at one place of a reply.
enum class Want {
  Nothing,    // no value belongs here
  Text,       // a string
  Number,     // any number
  Results,    // the array of results, one map per call
  Numbers,    // an array of numbers ("cpu_seconds", a vector result)
  Names,      // an array of strings ("inputs_changed")
  Result,     // one call's map of results
  Matrix,     // {"rows", "cols", "data"}
  Data,       // a matrix's numbers
  EnumName,   // a string naming an enum's value
  AnyResult,  // one of the above four, where the result's kind is not known
};

// The fields of a reply (grader/common/wire.hpp). A field the harness gains goes here too:
// the judge refuses every other.
struct Field {
  const char* name;
  Want want;
};
constexpr Field kReplyFields[] = {
    {"outcome", Want::Text},
    {"what", Want::Text},
    {"call", Want::Number},
    {"results", Want::Results},
    {"cpu_seconds", Want::Numbers},
    {"peak_heap_bytes", Want::Number},
    {"inputs_changed", Want::Names},
    {"failed_allocation_bytes", Want::Number},
    {"resident_growth_bytes", Want::Number},
};

// The most repeats of one call a request may ask for (wire.hpp: "repeat" 1..16): bounds the
// per-call arrays of the reply.
constexpr std::uint64_t kMaxRepeat = 16;

Want want_of_kind(const std::string& kind) {
  if (kind == "matrix") return Want::Matrix;
  if (kind == "vector") return Want::Numbers;
  if (kind == "number" || kind == "integer") return Want::Number;
  return Want::EnumName;
}

class ReplyWalker {
 public:
  explicit ReplyWalker(const ReplyShape& shape) : shape_(shape), numbers_left_(shape.max_numbers) {}
  const std::string& problem() const { return problem_; }

  bool null() { return refuse("a null"); }
  bool boolean(bool) { return refuse("a boolean"); }
  // A matrix's numbers, packed (grader/common/wire.hpp): counted as the array they stand for.
  bool binary(json::binary_t& bytes) {
    if (here() != Want::Data) return refuse("a byte string");
    if (bytes.size() % sizeof(double) != 0)
      return fail("a matrix's data that is not a whole number of doubles");
    const std::uint64_t items = bytes.size() / sizeof(double);
    if (items > numbers_left_)
      return fail(std::to_string(items) + " numbers where at most " +
                  std::to_string(numbers_left_) + " can come back");
    numbers_left_ -= items;
    stack_.back().data = items;  // set against rows x cols when the matrix closes
    return took_value();
  }
  bool number_integer(json::number_integer_t) { return number(); }
  bool number_unsigned(json::number_unsigned_t v) {
    if (!stack_.empty() && stack_.back().want == Want::Matrix) {
      Frame& m = stack_.back();
      if (m.key == "rows") m.rows = v;
      if (m.key == "cols") m.cols = v;
    }
    return number();
  }
  bool number_float(json::number_float_t, const std::string&) { return number(); }

  bool string(std::string&) {
    const Want w = here();
    if (w != Want::Text && w != Want::Names && w != Want::EnumName && w != Want::AnyResult)
      return refuse("a string");
    return took_value();
  }

  bool key(std::string& k) {
    Frame& f = stack_.back();
    f.key = k;
    f.value = Want::Nothing;
    if (f.want == Want::Nothing) {  // the reply's top map
      for (const Field& field : kReplyFields)
        if (k == field.name) f.value = field.want;
    } else if (f.want == Want::Result) {
      for (std::size_t i = 0; i < shape_.result_names.size(); ++i)
        if (k == shape_.result_names[i])
          f.value = i < shape_.result_kinds.size() ? want_of_kind(shape_.result_kinds[i])
                                                   : Want::AnyResult;
    } else if (f.want == Want::Matrix) {
      if (k == "rows" || k == "cols") f.value = Want::Number;
      if (k == "data") f.value = Want::Data;
    }
    if (f.value == Want::Nothing) return fail("an unknown field \"" + k.substr(0, 64) + "\"");
    return true;
  }

  bool start_object(std::size_t) {
    if (stack_.empty()) {
      stack_.emplace_back(Want::Nothing);  // the top map
      return true;
    }
    const Want w = here() == Want::AnyResult ? Want::Matrix : here();
    if (w != Want::Result && w != Want::Matrix) return refuse("a map");
    stack_.emplace_back(w);
    return true;
  }

  bool start_array(std::size_t items) {
    if (stack_.empty()) return refuse("an array");
    const Want w = here() == Want::AnyResult ? Want::Numbers : here();
    std::uint64_t most = 0;
    const char* what = "";
    switch (w) {
      case Want::Results:
        most = shape_.calls;
        what = "results";
        break;
      case Want::Names:
        most = shape_.watched;
        what = "names of changed inputs";
        break;
      case Want::Numbers:
        // "cpu_seconds" (per call, or per repeat of each) or a vector result.
        most = stack_.back().want == Want::Nothing ? shape_.calls * kMaxRepeat : numbers_left_;
        what = "numbers";
        break;
      case Want::Data:
        stack_.back().data = items;  // set against rows x cols when the matrix closes
        most = numbers_left_;
        what = "numbers";
        break;
      default: return refuse("an array");
    }
    // (std::size_t)-1 is an array of indefinite length, which wire::encode never writes.
    if (items == static_cast<std::size_t>(-1)) return fail("an array of indefinite length");
    if (items > most)
      return fail(std::to_string(items) + " " + what + " where at most " + std::to_string(most) +
                  " can come back");
    if (what == std::string("numbers") && stack_.back().want != Want::Nothing)
      numbers_left_ -= items;
    stack_.emplace_back(w);
    return true;
  }

  bool end_object() {
    const Frame& m = stack_.back();
    if (m.want == Want::Matrix) {
      if (!m.rows || !m.cols || !m.data) return fail("a matrix without rows, cols and data");
      const bool too_big = *m.cols != 0 && *m.rows > UINT64_MAX / *m.cols;
      if (too_big || *m.rows * *m.cols != *m.data)
        return fail("a " + std::to_string(*m.rows) + " x " + std::to_string(*m.cols) +
                    " matrix with " + std::to_string(*m.data) + " numbers");
    }
    return close();
  }
  bool end_array() { return close(); }

  bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception& e) {
    if (problem_.empty())
      problem_ = "not well-formed at byte " + std::to_string(at) + " (" + e.what() + ")";
    return false;
  }

 private:
  struct Frame {
    explicit Frame(Want w) : want(w) {}
    Want want;                   // what this container is
    Want value = Want::Nothing;  // in a map: what the value of the last key may be
    std::string key;
    std::optional<std::uint64_t> rows, cols, data;  // in a matrix (its keys come in any order)
  };

  // What the next item may be: in a map, the value of its last key; in an array, an element.
  Want here() const {
    if (stack_.empty()) return Want::Nothing;
    const Frame& f = stack_.back();
    switch (f.want) {
      case Want::Nothing:
      case Want::Result:
      case Want::Matrix: return f.value;
      case Want::Results: return Want::Result;
      case Want::Numbers:
      case Want::Data: return Want::Number;
      case Want::Names: return Want::Text;
      default: return Want::Nothing;
    }
  }

  bool number() {
    if (here() != Want::Number && here() != Want::AnyResult) return refuse("a number");
    Frame& f = stack_.back();
    // A number result counts against the budget; the numbers of an array were counted at its start.
    if (f.want == Want::Result) {
      if (numbers_left_ == 0) return fail("more numbers than can come back");
      --numbers_left_;
    }
    return took_value();
  }

  // A map's value is complete: the next item must be a key.
  bool took_value() {
    Frame& f = stack_.back();
    if (f.want == Want::Nothing || f.want == Want::Result || f.want == Want::Matrix)
      f.value = Want::Nothing;
    return true;
  }

  bool close() {
    stack_.pop_back();
    if (!stack_.empty()) took_value();
    return true;
  }

  bool refuse(const std::string& item) {
    const Frame* f = stack_.empty() ? nullptr : &stack_.back();
    return fail(item + (f && !f->key.empty() ? " under \"" + f->key.substr(0, 64) + "\""
                                             : std::string(" here")));
  }

  bool fail(std::string why) {
    if (problem_.empty()) problem_ = std::move(why);
    return false;
  }

  const ReplyShape& shape_;
  std::uint64_t numbers_left_;
  std::vector<Frame> stack_;
  std::string problem_;
};

}  // namespace

std::string reply_shape_problem(const std::string& bytes, const ReplyShape& shape) {
  ReplyWalker walker(shape);
  bool whole = false;
  try {
    whole = json::sax_parse(bytes.begin(), bytes.end(), &walker, json::input_format_t::cbor, true);
  } catch (const std::exception& e) {
    return std::string("not well-formed (") + e.what() + ")";
  }
  if (!walker.problem().empty()) return walker.problem();
  return whole ? "" : "not well-formed";
}

}  // namespace grader
