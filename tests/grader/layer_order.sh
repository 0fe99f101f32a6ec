#!/usr/bin/env bash
# The direction of grader/src's layers (ARCHITECTURE.md): a file includes only files of its own
# layer and of layers below it, and grader/common (the wire format and the API, shared with the
# runner). Reads every `#include "..."` of grader/src/<layer>/ and names each file and line that
# breaks the rule; also every folder of grader/src must be a layer and every file in one.
#
# usage: tests/grader/layer_order.sh GRADER_SRC LAYER...   (the layers lowest first, as
#        grader/CMakeLists.txt lists them)
set -eu -o pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 GRADER_SRC LAYER..." >&2
  exit 2
fi
src=$(realpath "$1")
shift
layers=("$@")
common=$(realpath -m "$src/../common")
declare -A rank
for i in "${!layers[@]}"; do
  rank[${layers[$i]}]=$i
done

bad=0
fail() {
  echo "$1"
  bad=1
}

for entry in "$src"/*; do
  name=${entry##*/}
  if [ ! -d "$entry" ]; then
    fail "grader/src/$name: not in a layer's folder"
  elif [ -z "${rank[$name]+set}" ]; then
    fail "grader/src/$name/: a folder that is not one of the layers (${layers[*]})"
  fi
done

# Headers CMake writes into the build folder (grader/CMakeLists.txt), found on the include path.
generated=" grader_config.hpp builder_sources.hpp "
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)"'
checked=0
for layer in "${layers[@]}"; do
  if [ ! -d "$src/$layer" ]; then
    fail "grader/src/$layer/: the layer has no folder"
    continue
  fi
  while IFS= read -r -d '' file; do
    where=grader/src/${file#"$src"/}
    dir=${file%/*}
    line_no=0
    while IFS= read -r line || [ -n "$line" ]; do
      line_no=$((line_no + 1))
      [[ $line =~ $include_re ]] || continue
      inc=${BASH_REMATCH[1]}
      checked=$((checked + 1))
      # As the compiler looks: beside the file first, then grader/src (the layers' include path).
      # A path that starts with ../ must be right from the file itself: the tests that compile
      # a layer's sources alone do not have grader/src on their include path.
      if [ -e "$dir/$inc" ]; then
        target=$(realpath -m "$dir/$inc")
      elif [[ $inc != ../* ]] && [ -e "$src/$inc" ]; then
        target=$(realpath -m "$src/$inc")
      elif [[ $generated == *" $inc "* ]]; then
        continue
      else
        fail "$where:$line_no: #include \"$inc\" names no file of the tree"
        continue
      fi
      case $target in
        "$src"/*)
          to=${target#"$src"/}
          to_layer=${to%%/*}
          if [ -z "${rank[$to_layer]+set}" ]; then
            fail "$where:$line_no: #include \"$inc\" is not in a layer's folder"
          elif [ "${rank[$to_layer]}" -gt "${rank[$layer]}" ]; then
            fail "$where:$line_no: #include \"$inc\": layer $to_layer is above $layer"
          fi
          ;;
        "$common"/*) ;;
        *) fail "$where:$line_no: #include \"$inc\" is outside grader/src and grader/common" ;;
      esac
    done <"$file"
  done < <(find "$src/$layer" -type f -print0 | sort -z)
done

if [ "$bad" -ne 0 ]; then
  echo "layer order (lowest first): ${layers[*]}"
  exit 1
fi
echo "$checked includes in grader/src follow the layers: ${layers[*]}"
