//! `rtorb options`: the ORB's options, and a check of a configuration
//! file as an ORB would read it.

use std::path::Path;

use rtorb::OrbConfig;

/// The listing of every ORB option (`rtorb options`), or the Markdown
/// table of them (`--markdown`).
pub(crate) fn list(markdown: bool) -> String {
    if markdown {
        rtorb::orb::options::markdown_table()
    } else {
        rtorb::orb::options::help()
    }
}

/// Reads a configuration file, then `-ORB` options, onto the defaults, as
/// an ORB built from them would, and prints the settings that result; an
/// unknown option, a bad value or a line that is not `name = value` is an
/// error naming the file and the line (or the option).
pub(crate) fn check(file: Option<&Path>, args: &[String]) -> Result<String, String> {
    let mut config = OrbConfig::default();
    if let Some(file) = file {
        config.apply_file(file).map_err(|e| e.to_string())?;
    }
    let rest = config.apply_args(args).map_err(|e| e.to_string())?;
    if let Some(first) = rest.first() {
        return Err(format!("not an ORB option: {first:?}"));
    }
    Ok(format!("{config:#?}\n"))
}
