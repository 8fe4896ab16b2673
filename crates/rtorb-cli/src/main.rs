//! The `rtorb` command-line tool.

fn main() {}
