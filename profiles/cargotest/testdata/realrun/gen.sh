#!/bin/sh
# gen.sh regenerates the real-run cargo fixtures in this directory (layout:
# ../../../gotest/testdata/realrun/README.md): cargo 1.95 test and clippy on
# a small crate with no dependencies. Run it from this directory: sh gen.sh
set -u
here=$(pwd)
work=/tmp/ctx-realrun/cargo
rm -rf "$work"
mkdir -p "$work"
cd "$work"
. "$here/../../../internal/realrun.sh"
cargo new --lib --vcs none -q calc
cd calc
cat > src/lib.rs <<'X'
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn describe(v: &Vec<i32>) -> String {
    let mut out = String::new();
    for i in 0..v.len() {
        out = out + &format!("{} ", v[i]);
    }
    if out.len() == 0 {
        return "empty".to_string();
    }
    return out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn adds_wrong() {
        assert_eq!(add(2, 2), 5, "two and two");
    }

    #[test]
    fn strings_differ() {
        assert_eq!(describe(&vec![1, 2]), "1 2");
    }

    #[test]
    fn not_equal() {
        assert_ne!(add(1, 1), 2);
    }
}
X
rec test cargo test --offline
rec test-q cargo test --offline -q
rec clippy cargo clippy --offline
rec clippy-all-targets cargo clippy --offline --all-targets -- -W clippy::pedantic
