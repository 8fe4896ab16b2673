//! `CORBA::ORB_init` in Rust: an [`Orb`] from a command line.
//!
//! [`Orb::init`] takes the arguments as given and hands back those that
//! are not `-ORB` options, in order, a program name among them if one was
//! given (as `argv[0]` stays `argv[0]` after `ORB_init` in C++);
//! [`Orb::init_from_env`] reads the process's command line and hands back
//! the program's own arguments, without its name.

use super::broker::Orb;
use super::config::orb_config::{CONFIG_ENV, OrbConfig};
use super::error::OrbError;

impl Orb {
    /// `CORBA::ORB_init`: an ORB configured from the `-ORB` options of
    /// `args` (see [`OrbConfig::apply_args`]) and a configuration file
    /// (see [`OrbConfig::apply_file`]), and the other arguments.
    ///
    /// `args` are taken as they are given, and every one that is not an
    /// `-ORB` option (or its value) comes back, in order. Given a whole
    /// command line, program name first (`std::env::args()`), the program
    /// name comes back first, as `argv[0]` stays `argv[0]` after
    /// `ORB_init` in C++; given the arguments without it
    /// (`std::env::args().skip(1)`), only those. A program that wants its
    /// own arguments calls [`Orb::init_from_env`], which reads the
    /// command line itself and leaves the program name out.
    ///
    /// The file is the one `-ORBConfigFile PATH` names or, without that
    /// option, the one the `RTORB_CONFIG` environment variable
    /// ([`CONFIG_ENV`]) names. Precedence: the command line over the file
    /// over the defaults (see [`OrbConfig::from_init_args`]).
    ///
    /// ```
    /// use rtorb::orb::{Orb, ServerStrategy};
    ///
    /// let dir = std::env::temp_dir().join(format!("rtorb-init-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let cfg = dir.join("rtorb.cfg");
    /// std::fs::write(&cfg, "# the server\n\
    ///     ListenEndpoints = iiop://127.0.0.1:0\n\
    ///     ServerStrategy  = leader-followers\n\
    ///     ServerThreads   = 2\n").unwrap();
    ///
    /// // A whole command line: the program name stays first.
    /// let args = ["server", "-ORBConfigFile", cfg.to_str().unwrap(), "-ORBServerThreads", "3", "out.txt"];
    /// let (orb, rest) = Orb::init(args).unwrap();
    /// assert_eq!(rest, ["server", "out.txt"]);
    /// assert_eq!(orb.config().server_strategy, ServerStrategy::LeaderFollowers);
    /// // The command line wins over the file.
    /// assert_eq!(orb.config().server_threads, 3);
    /// assert_eq!(orb.endpoints().len(), 1);
    ///
    /// // A reference written to a file is read back through `file://`.
    /// let obj = orb.root_poa().create_reference("IDL:Echo:1.0").unwrap();
    /// let ior_file = dir.join("echo.ior");
    /// std::fs::write(&ior_file, orb.object_to_string(&obj).unwrap() + "\n").unwrap();
    /// let again = orb.string_to_object(&format!("file://{}", ior_file.display())).unwrap();
    /// assert_eq!(orb.object_to_string(&again), orb.object_to_string(&obj));
    /// orb.shutdown();
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn init<I, S>(args: I) -> Result<(Orb, Vec<String>), OrbError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let (config, rest) = OrbConfig::from_init_args(args, std::env::var_os(CONFIG_ENV))?;
        Ok((Orb::builder_with(config).build()?, rest))
    }

    /// `CORBA::ORB_init` on this process's command line
    /// (`std::env::args_os()`): an ORB configured from its `-ORB` options
    /// and the configuration file they or [`CONFIG_ENV`] name, as
    /// [`Orb::init`] does, and the arguments that follow the program name
    /// and are not `-ORB` options — the program's own, without its name.
    /// An argument that is not Unicode is an error. To adjust the
    /// configuration before the ORB is built, use [`OrbConfig::from_env`]
    /// and [`Orb::builder_with`].
    ///
    /// ```
    /// use rtorb::orb::Orb;
    ///
    /// // A test binary's command line holds no `-ORB` options.
    /// let (orb, args) = Orb::init_from_env().unwrap();
    /// assert_eq!(args, std::env::args().skip(1).collect::<Vec<_>>());
    /// orb.shutdown();
    /// ```
    pub fn init_from_env() -> Result<(Orb, Vec<String>), OrbError> {
        let (config, rest) = OrbConfig::from_env()?;
        Ok((Orb::builder_with(config).build()?, rest))
    }
}

impl OrbConfig {
    /// The configuration `CORBA::ORB_init` builds from this process's
    /// command line (see [`OrbConfig::from_init_args`], with the
    /// [`CONFIG_ENV`] variable), and the arguments after the program
    /// name that are not `-ORB` options: what
    /// [`Orb::init_from_env`](super::Orb::init_from_env) builds its ORB
    /// from, for a program that adjusts the configuration first. An
    /// argument that is not Unicode is an error.
    pub fn from_env() -> Result<(OrbConfig, Vec<String>), OrbError> {
        OrbConfig::from_init_args(command_line()?, std::env::var_os(CONFIG_ENV))
    }
}

/// This process's arguments after the program name; an error names the
/// first that is not Unicode.
fn command_line() -> Result<Vec<String>, OrbError> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| OrbError::ArgumentNotUnicode(a.to_string_lossy().into_owned()))
        })
        .collect()
}
