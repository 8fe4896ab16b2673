//! The configuration file and the order `CORBA::ORB_init` applies it in,
//! before the command line.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::option::{ApplyError, CONFIG_FILE};
use super::table::find;
use crate::orb::config::bounded_file::read_bounded;
use crate::orb::config::option_error::{
    ConfigFileError, ConfigFileProblem, OptionError, OptionProblem,
};
use crate::orb::config::orb_config::OrbConfig;
use crate::orb::error::OrbError;

impl OrbConfig {
    /// The configuration `CORBA::ORB_init` builds from `args`, and the
    /// arguments that are not `-ORB` options.
    ///
    /// Precedence: the command line over the configuration file over the
    /// defaults. The file is the last `-ORBConfigFile PATH` of `args`, or,
    /// when there is none, `env_file` ([`crate::orb::Orb::init`] passes the
    /// [`CONFIG_ENV`](crate::orb::CONFIG_ENV) variable, `RTORB_CONFIG`); it is applied first, then
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
            let names_file = arg
                .get(..4)
                .filter(|p| p.eq_ignore_ascii_case("-ORB"))
                .and_then(|_| find(&arg[4..]))
                .is_some_and(|o| o.name == CONFIG_FILE);
            if !names_file {
                others.push(arg);
                continue;
            }
            let Some(path) = it.next() else {
                let allowed = find(CONFIG_FILE).map_or("", |o| o.values);
                return Err(OptionError::new(arg, OptionProblem::MissingValue, allowed).into());
            };
            file = Some(PathBuf::from(path));
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
    /// [`MAX_CONFIG_FILE_SIZE`](crate::orb::MAX_CONFIG_FILE_SIZE) or is not UTF-8, and a line that is not
    /// `name = value`, names an unknown option or has a bad value, are
    /// [`ConfigFileError`]s naming the file and the line.
    pub fn apply_file(&mut self, path: impl AsRef<Path>) -> Result<(), ConfigFileError> {
        let path = path.as_ref();
        let text = read_bounded(path).map_err(|e| ConfigFileError {
            file: path.to_owned(),
            line: None,
            problem: Box::new(e.into()),
        })?;
        self.apply_config_text(path, &text)
    }

    /// Applies the text of a configuration file (see
    /// [`OrbConfig::apply_file`]); `file` names it in errors.
    pub fn apply_config_text(&mut self, file: &Path, text: &str) -> Result<(), ConfigFileError> {
        for (n, raw) in text.lines().enumerate() {
            self.apply_config_line(raw.trim())
                .map_err(|problem| ConfigFileError {
                    file: file.to_owned(),
                    line: Some(n + 1),
                    problem: Box::new(problem),
                })?;
        }
        Ok(())
    }

    /// Applies one line of a configuration file, trimmed.
    fn apply_config_line(&mut self, line: &str) -> Result<(), ConfigFileProblem> {
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        let Some((name, value)) = line.split_once('=') else {
            return Err(ConfigFileProblem::NotNameValue(line.to_owned()));
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(ConfigFileProblem::BadName(name.to_owned()));
        }
        let error = |problem, allowed| OptionError::new(name, problem, allowed);
        let Some(option) = find(name) else {
            return Err(error(OptionProblem::Unknown, "").into());
        };
        if option.name == CONFIG_FILE {
            return Err(error(OptionProblem::CommandLineOnly, option.values).into());
        }
        if value.is_empty() {
            return Err(error(OptionProblem::MissingValue, option.values).into());
        }
        match option.apply(self, value) {
            Ok(()) => Ok(()),
            Err(ApplyError::Value(e)) => Err(error(
                OptionProblem::BadValue {
                    value: value.to_owned(),
                    error: e,
                },
                option.values,
            )
            .into()),
            // Only ConfigFile reads a file, and it is refused above.
            Err(ApplyError::File(e)) => Err(*e.problem),
        }
    }
}
