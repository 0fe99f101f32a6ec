// Comparing submissions as token streams: see similarity.hpp.
#include "similarity.hpp"

#include "../util/sha256.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <set>

namespace grader::similarity {

namespace {

const std::set<std::string>& keywords() {
  // C++20's keywords and alternative tokens: the words that carry a program's structure, kept
  // as they are while every other name becomes "ID".
  static const std::set<std::string> words = {"alignas",       "alignof",     "and",
                                              "and_eq",        "asm",         "auto",
                                              "bitand",        "bitor",       "bool",
                                              "break",         "case",        "catch",
                                              "char",          "char8_t",     "char16_t",
                                              "char32_t",      "class",       "compl",
                                              "concept",       "const",       "consteval",
                                              "constexpr",     "constinit",   "const_cast",
                                              "continue",      "co_await",    "co_return",
                                              "co_yield",      "decltype",    "default",
                                              "delete",        "do",          "double",
                                              "dynamic_cast",  "else",        "enum",
                                              "explicit",      "export",      "extern",
                                              "false",         "float",       "for",
                                              "friend",        "goto",        "if",
                                              "inline",        "int",         "long",
                                              "mutable",       "namespace",   "new",
                                              "noexcept",      "not",         "not_eq",
                                              "nullptr",       "operator",    "or",
                                              "or_eq",         "private",     "protected",
                                              "public",        "register",    "reinterpret_cast",
                                              "requires",      "return",      "short",
                                              "signed",        "sizeof",      "static",
                                              "static_assert", "static_cast", "struct",
                                              "switch",        "template",    "this",
                                              "thread_local",  "throw",       "true",
                                              "try",           "typedef",     "typeid",
                                              "typename",      "union",       "unsigned",
                                              "using",         "virtual",     "void",
                                              "volatile",      "wchar_t",     "while",
                                              "xor",           "xor_eq"};
  return words;
}

bool word_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool word_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Operators of more than one character, longest first, so that "<<=" is one token.
const char* const kOperators[] = {"<<=", ">>=", "<=>", "->*", "...", "::", "->", "++", "--",
                                  "<<",  ">>",  "<=",  ">=",  "==",  "!=", "&&", "||", "+=",
                                  "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", ".*", "##"};

// A string or character literal starting at `i` (its quote), to its closing quote; a raw
// string R"delim(...)delim" whole. Returns the index after it.
std::size_t literal_end(const std::string& t, std::size_t i, bool raw) {
  if (raw) {
    const std::size_t open = t.find('(', i);
    if (open == std::string::npos) return t.size();
    const std::string close = ")" + t.substr(i + 1, open - i - 1) + "\"";
    const std::size_t end = t.find(close, open);
    return end == std::string::npos ? t.size() : end + close.size();
  }
  const char quote = t[i];
  for (++i; i < t.size() && t[i] != quote && t[i] != '\n'; ++i)
    if (t[i] == '\\') ++i;
  return std::min(t.size(), i + 1);
}

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

namespace {

// The token stream; names become "ID" unless keep_names.
std::vector<std::string> stream_of(const std::string& source, bool keep_names) {
  std::vector<std::string> out;
  const std::string& t = source;
  std::size_t i = t.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a byte-order mark
  while (i < t.size() && out.size() < kMaxTokens) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (std::isspace(c) ||
        (c == '\\' && i + 1 < t.size() && (t[i + 1] == '\n' || t[i + 1] == '\r'))) {
      ++i;  // whitespace, line ends, a line continuation
    } else if (t.compare(i, 2, "//") == 0) {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (t.compare(i, 2, "/*") == 0) {
      const auto end = t.find("*/", i + 2);
      i = end == std::string::npos ? t.size() : end + 2;
    } else if (c == '"' || c == '\'') {
      const std::size_t end = literal_end(t, i, false);
      out.push_back(t.substr(i, end - i));
      i = end;
    } else if (word_start(c)) {
      std::size_t end = i;
      while (end < t.size() && word_char(static_cast<unsigned char>(t[end]))) ++end;
      const std::string word = t.substr(i, end - i);
      // A literal's prefix (u8"..", L'..', R"(..)") belongs to the literal.
      static const std::set<std::string> prefixes = {"L",  "u",  "U",  "u8", "R",
                                                     "LR", "uR", "UR", "u8R"};
      if (end < t.size() && (t[end] == '"' || t[end] == '\'') && prefixes.count(word)) {
        const std::size_t stop = literal_end(t, end, word.back() == 'R' && t[end] == '"');
        out.push_back(t.substr(i, stop - i));
        i = stop;
        continue;
      }
      out.push_back(keep_names || keywords().count(word) ? word : "ID");
      i = end;
    } else if (std::isdigit(c) || (c == '.' && i + 1 < t.size() &&
                                   std::isdigit(static_cast<unsigned char>(t[i + 1])))) {
      // A number as written, with its digit separators, suffix and exponent's sign.
      std::size_t end = i + 1;
      while (end < t.size()) {
        const auto d = static_cast<unsigned char>(t[end]);
        const bool sign = (d == '+' || d == '-') && std::strchr("eEpP", t[end - 1]) != nullptr;
        if (!(std::isalnum(d) || d == '.' || d == '\'' || d == '_' || sign)) break;
        ++end;
      }
      out.push_back(t.substr(i, end - i));
      i = end;
    } else {
      std::size_t len = 1;
      for (const char* op : kOperators)
        if (t.compare(i, std::strlen(op), op) == 0) {
          len = std::strlen(op);
          break;
        }
      out.push_back(t.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string digest_of(const std::vector<std::string>& stream) {
  Sha256 h;
  for (const auto& token : stream) {
    h.add(token);
    h.add(std::string(1, '\0'));  // no two streams join into the same bytes
  }
  return h.hex();
}

}  // namespace

std::vector<std::string> tokens(const std::string& source) { return stream_of(source, false); }

std::string digest(const std::string& source) { return digest_of(tokens(source)); }

std::string exact_digest(const std::string& source) { return digest_of(stream_of(source, true)); }

Fingerprint fingerprint(const std::string& source) {
  const auto stream = tokens(source);
  Fingerprint f;
  f.tokens = stream.size();
  std::vector<std::uint64_t> each;
  each.reserve(stream.size());
  for (const auto& token : stream) each.push_back(fnv1a(token));
  for (std::size_t i = 0; i + kRun <= each.size(); ++i) {
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t k = i; k < i + kRun; ++k) {
      h ^= each[k];
      h *= 1099511628211ULL;
    }
    f.kgrams.push_back(static_cast<std::uint32_t>(h ^ (h >> 32)));
  }
  return f;
}

namespace {

std::vector<std::uint32_t> sorted_unique(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool holds(const std::vector<std::uint32_t>& sorted, std::uint32_t h) {
  return std::binary_search(sorted.begin(), sorted.end(), h);
}

// One file, ready for its pairs: which tokens the stub covers, and its other k-grams, sorted.
struct Prepared {
  const Fingerprint* f = nullptr;
  std::vector<char> stub_token;    // per token: covered by a k-gram of the stub
  std::size_t counted = 0;         // tokens not covered by the stub
  std::vector<std::uint32_t> own;  // its k-grams not in the stub, sorted, each once
};

Prepared prepare(const Fingerprint& f, const std::vector<std::uint32_t>& stub) {
  Prepared p;
  p.f = &f;
  p.stub_token.assign(f.tokens, 0);
  std::vector<std::uint32_t> own;
  for (std::size_t i = 0; i < f.kgrams.size(); ++i) {
    if (holds(stub, f.kgrams[i])) {
      for (std::size_t k = i; k < i + kRun && k < f.tokens; ++k) p.stub_token[k] = 1;
    } else {
      own.push_back(f.kgrams[i]);
    }
  }
  p.counted = static_cast<std::size_t>(std::count(p.stub_token.begin(), p.stub_token.end(), 0));
  p.own = sorted_unique(std::move(own));
  return p;
}

// Tokens of `p` (not the stub's) covered by a k-gram in `shared`.
std::size_t matched(const Prepared& p, const std::vector<std::uint32_t>& shared) {
  std::vector<char> hit(p.f->tokens, 0);
  for (std::size_t i = 0; i < p.f->kgrams.size(); ++i)
    if (holds(shared, p.f->kgrams[i]))
      for (std::size_t k = i; k < i + kRun && k < p.f->tokens; ++k) hit[k] = 1;
  std::size_t n = 0;
  for (std::size_t k = 0; k < hit.size(); ++k) n += hit[k] && !p.stub_token[k];
  return n;
}

}  // namespace

std::vector<Pair> similar_pairs(const std::map<std::string, Fingerprint>& files,
                                const Fingerprint& stub, double threshold) {
  const std::vector<std::uint32_t> stub_kgrams = sorted_unique(stub.kgrams);
  std::vector<std::pair<std::string, Prepared>> ready;
  for (const auto& [name, f] : files) {
    Prepared p = prepare(f, stub_kgrams);
    if (p.counted > 0 && !p.own.empty()) ready.emplace_back(name, std::move(p));
  }
  std::vector<Pair> pairs;
  for (std::size_t x = 0; x < ready.size(); ++x)
    for (std::size_t y = x + 1; y < ready.size(); ++y) {
      const Prepared &a = ready[x].second, &b = ready[y].second;
      std::vector<std::uint32_t> shared;
      std::set_intersection(a.own.begin(), a.own.end(), b.own.begin(), b.own.end(),
                            std::back_inserter(shared));
      if (shared.empty()) continue;
      Pair p{ready[x].first, ready[y].first,     0,        matched(a, shared),
             a.counted,      matched(b, shared), b.counted};
      p.share = static_cast<double>(p.matched_a + p.matched_b) /
                static_cast<double>(p.counted_a + p.counted_b);
      if (p.share >= threshold) pairs.push_back(p);
    }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& l, const Pair& r) { return l.share > r.share; });
  return pairs;
}

}  // namespace grader::similarity
