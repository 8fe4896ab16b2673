//! The JacORB peers: a Java ORB's client and server, compiled from
//! `interop/jacorb/src/` against JacORB's jars from Maven Central.
//!
//! [`ensure_jacorb`] asks Maven for JacORB's class path (the jars are
//! fetched once into the local repository, `~/.m2`, by
//! `scripts/install-deps.sh` or by the first run) and compiles the peers
//! with `javac` into `target/jacorb`; [`JacorbPeers::java`] is a command
//! that runs one of them in JacORB's ORB. A missing JDK, Maven or JacORB is
//! an error saying how to install it, never a silent skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::peers::workspace_root;

/// The JacORB release the peers are built against.
pub const JACORB_VERSION: &str = "3.9";

const HINT: &str = "run scripts/install-deps.sh (a JDK and Debian's maven; JacORB's jars \
                    come from Maven Central)";

/// The compiled JacORB peers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JacorbPeers {
    /// JacORB's jars, as a Java class path.
    pub class_path: String,
    /// Where the peers' classes were compiled to (`target/jacorb/classes`).
    pub classes: PathBuf,
}

impl JacorbPeers {
    /// A `java` command that runs `main_class` (one of the peers, e.g.
    /// `CubitDiiClient`) in JacORB's ORB with the system `properties` (such
    /// as `("jacorb.locate_on_bind", "on")`), JacORB's logging kept to
    /// errors; the peer's own arguments are added after it.
    pub fn java(&self, main_class: &str, properties: &[(&str, &str)]) -> Command {
        let mut command = Command::new("java");
        command
            .arg("-cp")
            .arg(format!("{}:{}", self.classes.display(), self.class_path))
            .arg("-Dorg.omg.CORBA.ORBClass=org.jacorb.orb.ORB")
            .arg("-Dorg.omg.CORBA.ORBSingletonClass=org.jacorb.orb.ORBSingleton")
            .arg("-Djacorb.log.default.verbosity=1")
            .args(properties.iter().map(|(k, v)| format!("-D{k}={v}")))
            .arg(main_class);
        command
    }
}

/// Compiles the JacORB peers (once per process, serialised between
/// processes with `flock`) and returns where they are.
pub fn ensure_jacorb() -> Result<JacorbPeers, String> {
    static PEERS: OnceLock<Result<JacorbPeers, String>> = OnceLock::new();
    PEERS.get_or_init(build).clone()
}

fn run(command: &mut Command, what: &str) -> Result<String, String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {what}: {e}; {HINT}"))?;
    if !output.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs `program args…` under `flock LOCK` when flock is there.
fn locked(lock: &Path, program: &str) -> Command {
    let flock = Command::new("flock")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if flock {
        let mut command = Command::new("flock");
        command.arg(lock).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn build() -> Result<JacorbPeers, String> {
    let root = workspace_root();
    let src = root.join("interop").join("jacorb");
    let out = root.join("target").join("jacorb");
    let classes = out.join("classes");
    std::fs::create_dir_all(&classes)
        .map_err(|e| format!("cannot create {}: {e}", classes.display()))?;
    let lock = out.join(".build.lock");
    let class_path_file = out.join("classpath");

    run(
        locked(&lock, "mvn")
            .arg("--batch-mode")
            .arg("--quiet")
            .arg("--file")
            .arg(src.join("pom.xml"))
            .arg("dependency:build-classpath")
            .arg(format!("-Dmdep.outputFile={}", class_path_file.display())),
        "mvn dependency:build-classpath (JacORB's jars)",
    )?;
    let class_path = std::fs::read_to_string(&class_path_file)
        .map_err(|e| format!("cannot read {}: {e}", class_path_file.display()))?
        .trim()
        .to_owned();
    if !class_path.contains(&format!("jacorb-{JACORB_VERSION}.jar")) {
        return Err(format!(
            "JacORB {JACORB_VERSION} is not on the class path Maven gave: {class_path}"
        ));
    }

    let mut sources: Vec<PathBuf> = std::fs::read_dir(src.join("src"))
        .map_err(|e| format!("cannot list {}: {e}", src.join("src").display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    run(
        locked(&lock, "javac")
            .arg("-nowarn")
            .arg("-cp")
            .arg(&class_path)
            .arg("-d")
            .arg(&classes)
            .args(&sources),
        "javac (the JacORB peers)",
    )?;
    Ok(JacorbPeers {
        class_path,
        classes,
    })
}
