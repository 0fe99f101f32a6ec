#include "cbor_shape.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
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
  Outcome,    // a string naming one of kOutcomes
  Number,     // any number
  Count,      // a whole number >= 0 (a byte count, a call's index, a matrix's rows or cols)
  Integer,    // a whole number that fits a std::int64_t (an "integer" result)
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
    {"outcome", Want::Outcome},
    {"what", Want::Text},
    {"call", Want::Count},
    {"results", Want::Results},
    {"cpu_seconds", Want::Numbers},
    {"peak_heap_bytes", Want::Count},
    {"inputs_changed", Want::Names},
    {"failed_allocation_bytes", Want::Count},
    {"resident_growth_bytes", Want::Count},
};

// The outcomes a runner can report (grader/common/wire.hpp).
constexpr const char* kOutcomes[] = {"returned", "not_implemented", "exception", "bad_alloc",
                                     "harness_error"};

// The most repeats of one call a request may ask for (wire.hpp: "repeat" 1..16): bounds the
// per-call arrays of the reply.
constexpr std::uint64_t kMaxRepeat = 16;

Want want_of_kind(const std::string& kind) {
  if (kind == "matrix") return Want::Matrix;
  if (kind == "vector") return Want::Numbers;
  if (kind == "number") return Want::Number;
  if (kind == "integer") return Want::Integer;
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
  // CBOR writes every whole number >= 0 as unsigned: this is a negative one.
  bool number_integer(json::number_integer_t) {
    if (here() == Want::Count) return refuse("a negative number");
    return number(Want::Integer);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    const Want w = here();
    if (w == Want::Count) return count(v);
    if (w == Want::Integer && v > static_cast<std::uint64_t>(INT64_MAX))
      return fail("the integer " + std::to_string(v) + " under \"" + key_here() +
                  "\", more than a 64-bit integer holds");
    return number(Want::Integer);
  }
  bool number_float(json::number_float_t, const std::string&) { return number(Want::Number); }

  bool string(std::string& s) {
    const Want w = here();
    if (w != Want::Text && w != Want::Names && w != Want::EnumName && w != Want::AnyResult &&
        w != Want::Outcome)
      return refuse("a string");
    if (w == Want::Outcome) {
      if (std::none_of(std::begin(kOutcomes), std::end(kOutcomes),
                       [&](const char* o) { return s == o; }))
        return fail("an unknown outcome \"" + s.substr(0, 64) + "\"");
      outcome_ = s;
    }
    // An enum's kind is its names joined by '|' (api.hpp): the judge maps the name back.
    if (w == Want::EnumName && !is_one_of(s, stack_.back().kind))
      return fail("\"" + s.substr(0, 64) + "\" under \"" + key_here() + "\", which is not one of " +
                  stack_.back().kind);
    return took_value();
  }

  bool key(std::string& k) {
    Frame& f = stack_.back();
    f.key = k;
    f.value = Want::Nothing;
    f.kind.clear();
    if (f.want == Want::Nothing) {  // the reply's top map
      for (const Field& field : kReplyFields)
        if (k == field.name) f.value = field.want;
    } else if (f.want == Want::Result) {
      for (std::size_t i = 0; i < shape_.result_names.size(); ++i)
        if (k == shape_.result_names[i]) {
          f.value = i < shape_.result_kinds.size() ? want_of_kind(shape_.result_kinds[i])
                                                   : Want::AnyResult;
          if (i < shape_.result_kinds.size()) f.kind = shape_.result_kinds[i];
        }
    } else if (f.want == Want::Matrix) {
      if (k == "rows" || k == "cols") f.value = Want::Count;
      if (k == "data") f.value = Want::Data;
    }
    if (f.value == Want::Nothing) return fail("an unknown field \"" + k.substr(0, 64) + "\"");
    // A map's key twice: the decoder keeps the last value, the walk would have judged both.
    if (std::find(f.keys.begin(), f.keys.end(), k) != f.keys.end())
      return fail("the field \"" + k + "\" twice in one map");
    f.keys.push_back(k);  // only known names get here: a few per map
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
    if (w == Want::Results) results_ = items;
    if (what == std::string("numbers") && stack_.back().want != Want::Nothing)
      numbers_left_ -= items;
    stack_.emplace_back(w);
    return true;
  }

  bool end_object() {
    const Frame& m = stack_.back();
    if (m.want == Want::Matrix) {
      if (!m.rows || !m.cols || !m.data) return fail("a matrix without rows, cols and data");
      const std::string shape = std::to_string(*m.rows) + " x " + std::to_string(*m.cols);
      const bool too_big = *m.cols != 0 && *m.rows > UINT64_MAX / *m.cols;
      if (too_big || *m.rows * *m.cols != *m.data)
        return fail("a " + shape + " matrix with " + std::to_string(*m.data) + " numbers");
      // Rows x cols is the count of numbers, bounded; but with one side 0 the other could be
      // anything (0 x 2^63 holds no number), and no judge can build or compare that.
      if (*m.rows > shape_.max_numbers || *m.cols > shape_.max_numbers)
        return fail("a " + shape + " matrix, a side longer than any result of this check");
    }
    if (m.want == Want::Result && m.keys.size() != shape_.result_names.size()) {
      for (const std::string& name : shape_.result_names)
        if (std::find(m.keys.begin(), m.keys.end(), name) == m.keys.end())
          return fail("a result without \"" + name + "\"");
    }
    if (stack_.size() == 1) {  // the reply itself: the judge goes by its outcome
      if (outcome_.empty()) return fail("a reply without an outcome");
      if (outcome_ == "returned" && results_ != shape_.calls)
        return fail(std::to_string(results_) + " results for " + std::to_string(shape_.calls) +
                    " calls that returned");
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
    std::string kind;               // in a result: the last key's kind (api.hpp), if known
    std::vector<std::string> keys;  // in a map: the keys so far
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

  // A number where one may stand: `is` says whether it is whole (Want::Integer) or not.
  bool number(Want is) {
    const Want w = here();
    if ((w == Want::Integer || w == Want::Count) && is != Want::Integer)
      return refuse("a floating-point number");
    if (w != Want::Number && w != Want::Integer && w != Want::AnyResult) return refuse("a number");
    Frame& f = stack_.back();
    // A number result counts against the budget; the numbers of an array were counted at its start.
    if (f.want == Want::Result) {
      if (numbers_left_ == 0) return fail("more numbers than can come back");
      --numbers_left_;
    }
    return took_value();
  }

  // A count (Want::Count): a matrix's rows or cols, a byte count, the call the runner was in.
  bool count(std::uint64_t v) {
    Frame& f = stack_.back();
    if (f.want == Want::Matrix) (f.key == "rows" ? f.rows : f.cols) = v;
    if (f.want == Want::Nothing && f.key == "call" && v >= shape_.calls)
      return fail("call " + std::to_string(v) + " of a request of " + std::to_string(shape_.calls) +
                  " calls");
    return took_value();
  }

  std::string key_here() const { return stack_.empty() ? "" : stack_.back().key.substr(0, 64); }

  static bool is_one_of(const std::string& name, const std::string& names) {
    std::size_t at = 0;
    while (true) {
      const std::size_t end = names.find('|', at);
      if (names.compare(at, end == std::string::npos ? std::string::npos : end - at, name) == 0)
        return true;
      if (end == std::string::npos) return false;
      at = end + 1;
    }
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
  std::string outcome_;        // the reply's "outcome"
  std::uint64_t results_ = 0;  // how many results it holds
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
