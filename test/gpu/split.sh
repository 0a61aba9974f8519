#!/usr/bin/env bash
# Splits a prepared GPU suite (test/gpu/prepare.sh) into parts the device
# tool can carry: it carries 64 MiB a call, the working tree included, so
# each part holds at most 52 MiB. run.sh runs each part as a suite of its
# own. The first part keeps the cases and the runtime's unit tests; the
# second takes the language models, the third the PTX, cubin-only and
# random builds; the largest cases then move, one at a time, into the
# first further part (b, c, d, ...) with room for them. Run again on a
# split suite, it joins the parts first.
#   test/gpu/split.sh DEST
set -uo pipefail
DEST=${1:?usage: split.sh DEST}
limit=$((52 << 20))
bytes() { du -sb "$1" | cut -f1; }
for part in "$DEST"-?; do
  [ -d "$part" ] || continue
  # What the suite has (a newer build) wins over a part's copy.
  for entry in "$part"/* "$part"/cases/*; do
    name=$(basename "$entry")
    case $entry in
      "$part/cases"|"$part/check.py"|"$part/run.sh") continue ;;
      "$part/cases/"*) target=$DEST/cases/$name ;;
      *) target=$DEST/$name ;;
    esac
    [ -e "$target" ] || mv "$entry" "$target"
  done
  rm -rf "$part"
done
[ "$(bytes "$DEST")" -gt $((56 << 20)) ] || exit 0
mkdir -p "$DEST-b" "$DEST-c"
for part in "$DEST-b" "$DEST-c"; do cp "$DEST/check.py" "$DEST/run.sh" "$part/"; done
[ -d "$DEST/lm" ] && mv "$DEST/lm" "$DEST-b/"
for dir in ptx cubin-only random; do
  [ -d "$DEST/$dir" ] && mv "$DEST/$dir" "$DEST-c/"
done
while [ "$(bytes "$DEST")" -gt $limit ]; do
  largest=$(du -sb "$DEST"/cases/* | sort -rn | head -1 | cut -f2)
  size=$(bytes "$largest")
  for letter in b c d e f g h; do
    part=$DEST-$letter
    if [ ! -d "$part" ]; then
      mkdir -p "$part" && cp "$DEST/check.py" "$DEST/run.sh" "$part/"
    fi
    [ $(($(bytes "$part") + size)) -le $limit ] && break
  done
  mkdir -p "$part/cases" && mv "$largest" "$part/cases/"
done
status=0
echo -n "split for the device tool, run each part:"
for part in "$DEST" "$DEST"-?; do
  echo -n " $part ($(($(bytes "$part") >> 20)) MiB)"
  [ "$(bytes "$part")" -le $limit ] || status=1
done
echo
[ $status = 0 ] || echo "a part is over 52 MiB: the device tool cannot carry it"
exit $status
