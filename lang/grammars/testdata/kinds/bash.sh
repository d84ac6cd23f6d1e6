#!/bin/bash
set -euo pipefail
NAME="${1:-world}"
greet() {
  local who=$1
  echo "hello, $who" | tr a-z A-Z
}
for f in *.txt; do
  if [[ -f "$f" && $f != skip* ]]; then
    greet "$f" >> out.log 2>&1
  elif [ -d "$f" ]; then
    continue
  fi
done
case "$NAME" in
  a|b) echo one ;;
  *) echo "$(date +%s)" ;;
esac
arr=(1 2 3)
echo "${arr[@]}" $((1 + 2))
while read -r line; do echo "$line"; done < input.txt
