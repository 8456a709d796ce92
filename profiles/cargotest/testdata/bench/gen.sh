#!/bin/sh
# gen.sh regenerates the large real cargo test output the throughput
# benchmark (BenchmarkParse) reads: a scratch crate of eight modules with 400
# tests each (a few failing assertions, ignored tests and should_panic tests)
# written to /tmp/cargo-bench, tested offline with the real cargo. Run it from
# this directory.
set -eu
here=$(pwd)
rm -rf /tmp/cargo-bench && mkdir -p /tmp/cargo-bench/src
cd /tmp/cargo-bench
printf '[package]\nname = "bigsuite"\nversion = "0.1.0"\nedition = "2021"\n' > Cargo.toml
python3 - <<'PY'
mods = []
for m in range(8):
    body = [f"pub mod m{m} {{", "    pub fn sq(n: u64) -> u64 { n * n }", "    #[cfg(test)]", "    mod tests {", "        use super::*;"]
    for i in range(400):
        if i % 61 == m:
            body.append(f"        #[test]\n        fn case_{i}() {{ assert_eq!(sq({i}) % 7, 9, \"residue of {i}\"); }}")
        elif i % 89 == m:
            body.append(f"        #[test]\n        #[ignore]\n        fn case_{i}() {{ assert!(sq({i}) > 0); }}")
        elif i % 131 == m:
            body.append(f"        #[test]\n        #[should_panic]\n        fn case_{i}() {{ panic!(\"boom {i}\"); }}")
        else:
            body.append(f"        #[test]\n        fn case_{i}() {{ assert!(sq({i}) >= {i}); }}")
    body.append("    }\n}")
    mods.append("\n".join(body))
open("src/lib.rs", "w").write("\n".join(mods) + "\n")
PY
cargo test --offline > stdout 2> stderr || true
gzip -9 < stdout > "$here/cargo.stdout.gz"
gzip -9 < stderr > "$here/cargo.stderr.gz"
