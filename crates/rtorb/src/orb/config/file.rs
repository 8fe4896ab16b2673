//! The configuration file and the order `CORBA::ORB_init` applies it in,
//! before the command line.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{MAX_CONFIG_FILE_SIZE, OrbConfig};
use crate::orb::OrbError;

impl OrbConfig {
    /// The configuration `CORBA::ORB_init` builds from `args`, and the
    /// arguments that are not `-ORB` options.
    ///
    /// Precedence: the command line over the configuration file over the
    /// defaults. The file is the last `-ORBConfigFile PATH` of `args`, or,
    /// when there is none, `env_file` ([`crate::orb::Orb::init`] passes the
    /// [`CONFIG_ENV`](super::CONFIG_ENV) variable, `RTORB_CONFIG`); it is applied first, then
    /// every other option of `args` in order. Options that may repeat
    /// (endpoints, `InitRef`) accumulate, the file's first; of two
    /// `InitRef`s with the same name the later, the command line's, wins.
    pub fn from_init_args<I, S>(
        args: I,
        env_file: Option<OsString>,
    ) -> Result<(OrbConfig, Vec<String>), OrbError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut others = Vec::new();
        let mut file = None;
        let mut it = args.into_iter().map(Into::into);
        while let Some(arg) = it.next() {
            if arg.len() == 14 && arg.eq_ignore_ascii_case("-ORBConfigFile") {
                let path = it
                    .next()
                    .ok_or_else(|| OrbError::Args(format!("{arg} needs a value")))?;
                file = Some(PathBuf::from(path));
            } else {
                others.push(arg);
            }
        }
        let mut config = OrbConfig::default();
        if let Some(path) = file.or_else(|| env_file.filter(|p| !p.is_empty()).map(PathBuf::from)) {
            config.apply_file(&path)?;
        }
        let rest = config.apply_args(others)?;
        Ok((config, rest))
    }

    /// Applies a configuration file in the style of omniORB's
    /// `omniORB.cfg`: one `name = value` per line, the name being a `-ORB`
    /// option's without the prefix (any case), the value the option's
    /// (see [`OrbConfig::apply_args`]); blank lines and lines starting
    /// with `#` are ignored, and an option that may repeat (`Endpoint`,
    /// `ListenEndpoints`, `InitRef`) may appear on several lines.
    ///
    /// ```text
    /// # A server on a well-known port, serving from a thread pool.
    /// ListenEndpoints = iiop://0.0.0.0:2809
    /// InitRef         = NameService=corbaloc::host:2809/NameService
    /// ServerStrategy  = leader-followers
    /// ServerThreads   = 8
    /// ```
    ///
    /// A file that cannot be read, is larger than
    /// [`MAX_CONFIG_FILE_SIZE`] or is not UTF-8, and a line that is not
    /// `name = value`, names an unknown option or has a bad value, are
    /// [`OrbError::ConfigFile`] errors naming the file and the line.
    pub fn apply_file(&mut self, path: impl AsRef<Path>) -> Result<(), OrbError> {
        let path = path.as_ref();
        let text = read_bounded(path).map_err(|message| OrbError::ConfigFile {
            file: path.to_owned(),
            line: None,
            message,
        })?;
        self.apply_config_text(path, &text)
    }

    /// Applies the text of a configuration file (see
    /// [`OrbConfig::apply_file`]); `file` names it in errors.
    pub fn apply_config_text(&mut self, file: &Path, text: &str) -> Result<(), OrbError> {
        for (n, raw) in text.lines().enumerate() {
            let err = |message: String| OrbError::ConfigFile {
                file: file.to_owned(),
                line: Some(n + 1),
                message,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(err(format!("expected name = value, not {line:?}")));
            };
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(err(format!("bad option name {name:?}")));
            }
            if name.eq_ignore_ascii_case("ConfigFile") {
                return Err(err(
                    "ConfigFile cannot be set in a configuration file".into()
                ));
            }
            if value.is_empty() {
                return Err(err(format!("{name} needs a value")));
            }
            self.apply_args([format!("-ORB{name}"), value.to_owned()])
                .map_err(|e| err(e.to_string()))?;
        }
        Ok(())
    }
}

/// Reads a UTF-8 text file of at most [`MAX_CONFIG_FILE_SIZE`] octets.
pub(crate) fn read_bounded(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_CONFIG_FILE_SIZE {
        return Err(format!(
            "larger than the limit of {MAX_CONFIG_FILE_SIZE} octets"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())
}
