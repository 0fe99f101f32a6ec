# Writes OUT, a C++ file defining linlab::kBookCss and linlab::kBookJs from CSS and JS (the lab
# book's own style and script, which the page inlines). Run with cmake -P at build time.
file(READ ${CSS} css)
file(READ ${JS} js)
foreach(text css js)
  string(FIND "${${text}}" ")LINATTN_BOOK\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${text} holds the raw string's closing delimiter")
  endif()
endforeach()
file(WRITE ${OUT} "// Generated from reference/labs/book/ by embed.cmake; do not edit.\n"
  "namespace linlab {\n"
  "extern const char* const kBookCss;\nextern const char* const kBookJs;\n"
  "const char* const kBookCss = R\"LINATTN_BOOK(${css})LINATTN_BOOK\";\n"
  "const char* const kBookJs = R\"LINATTN_BOOK(${js})LINATTN_BOOK\";\n"
  "}  // namespace linlab\n")
