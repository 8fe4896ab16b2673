//! corbaname and the CosNaming stubs against omniORB's naming service: a
//! private omniNames (Debian `omniorb-nameserver`) on a free port, rtorb
//! binding a Cubit in it under `a/b` with the stubs of `rtorb::naming`,
//! resolving it through `corbaname::`, a `file://` holding that URL and
//! `corbaname:rir:` with `-ORBInitRef`, and calling it; omniORB's
//! `nameclt` reading what rtorb bound and binding what rtorb resolves; and
//! the errors for a name that is not bound and a naming service that is
//! not there. A missing omniNames or nameclt fails these tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rtorb::exception::{SystemException, SystemExceptionKind};
use rtorb::minor::BAD_PARAM_OTHER_URL_ERROR;
use rtorb::naming::{self, BindingType, NamingContextExt};
use rtorb::object::{Object, Stub};
use rtorb::orb::Orb;
use rtorb_giop::ObjectReference;
use rtorb_interop::process::{ChildGuard, Collector, run_to_end};
use rtorb_test_support::cubit::{Cubit, CubitImpl, CubitSkeleton};
use rtorb_test_support::net::free_port;
use rtorb_test_support::wait::eventually;
use rtorb_test_support::{TIMEOUT, client, server};

const OMNINAMES: &str = "/usr/bin/omniNames";
const NAMECLT: &str = "/usr/bin/nameclt";

/// A private omniNames on a loopback port, with its own log directory;
/// killed, and its directory removed, when dropped (also when a test
/// panics).
struct NameServer {
    port: u16,
    dir: PathBuf,
    process: Option<ChildGuard>,
    output: Option<Collector>,
}

impl NameServer {
    /// Starts omniNames and waits until its root context answers
    /// `_non_existent`.
    fn start() -> NameServer {
        assert!(
            Path::new(OMNINAMES).exists(),
            "{OMNINAMES} is missing: install the Debian package omniorb-nameserver \
             (scripts/install-deps.sh)"
        );
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let mut last = String::new();
        // The port is chosen before omniNames binds it; another process
        // may take it in between, so try again then.
        for _ in 0..3 {
            let n = STARTED.fetch_add(1, Ordering::Relaxed);
            let dir =
                std::env::temp_dir().join(format!("rtorb-omninames-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let port = free_port();
            let mut child = Command::new(OMNINAMES)
                .arg("-start")
                .arg(port.to_string())
                .arg("-logdir")
                .arg(&dir)
                .arg("-ORBendPoint")
                .arg(format!("giop:tcp:127.0.0.1:{port}"))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map(|c| ChildGuard::new(c, "omniNames"))
                .unwrap_or_else(|e| panic!("cannot start {OMNINAMES}: {e}"));
            let _stdout = child.take_stdout().map(Collector::start);
            let output = child.take_stderr().map(Collector::start);
            let mut server = NameServer {
                port,
                dir,
                process: Some(child),
                output,
            };
            let orb = client::orb();
            let root = orb.string_to_object(&server.corbaloc()).unwrap();
            let mut exited = false;
            let up = eventually(TIMEOUT, || {
                if let Some(Ok(Some(_))) = server.process.as_mut().map(ChildGuard::try_wait) {
                    exited = true;
                    return true;
                }
                root.non_existent() == Ok(false)
            });
            orb.shutdown();
            if up && !exited {
                return server;
            }
            last = format!(
                "omniNames on port {port} {}: {}",
                if exited { "exited" } else { "did not answer" },
                server.stop()
            );
        }
        panic!("{last}");
    }

    /// `corbaloc::127.0.0.1:PORT/NameService`.
    fn corbaloc(&self) -> String {
        format!("corbaloc::127.0.0.1:{}/NameService", self.port)
    }

    /// Runs `nameclt` on this naming service with `args`: its output.
    fn nameclt(&self, args: &[&str]) -> String {
        assert!(
            Path::new(NAMECLT).exists(),
            "{NAMECLT} is missing: install the Debian package omniorb (scripts/install-deps.sh)"
        );
        let mut cmd = Command::new(NAMECLT);
        cmd.arg("-ORBInitRef")
            .arg(format!("NameService={}", self.corbaloc()))
            .args(args);
        let (status, output) = run_to_end(&mut cmd, "nameclt", TIMEOUT)
            .unwrap_or_else(|e| panic!("nameclt {args:?}: {e}"));
        assert!(
            status.success(),
            "nameclt {args:?} failed ({status}): {output}"
        );
        output
    }

    /// Kills omniNames: what it printed.
    fn stop(&mut self) -> String {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        self.output
            .take()
            .map(Collector::finish)
            .unwrap_or_default()
    }
}

impl Drop for NameServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// An rtorb server with a Cubit: the server, the Cubit's skeleton (whose
/// servant counts the calls) and its reference.
fn cubit_server() -> (Orb, Arc<CubitSkeleton<CubitImpl>>, Object) {
    let server = server::orb();
    let skeleton = Arc::new(CubitSkeleton(CubitImpl::default()));
    let object = server.activate(skeleton.clone()).unwrap();
    (server, skeleton, object)
}

fn root_of(orb: &Orb, ns: &NameServer) -> NamingContextExt {
    orb.string_to_object(&ns.corbaloc())
        .unwrap()
        .unchecked_narrow()
}

fn cube(object: Object, x: i32) -> i32 {
    Cubit::unchecked_narrow(object).cube_long(x).unwrap()
}

fn same_reference(a: &str, b: &str) -> bool {
    ObjectReference::from_stringified(a.trim()).unwrap()
        == ObjectReference::from_stringified(b.trim()).unwrap()
}

#[test]
#[ignore = "needs omniORB's omniNames and nameclt (Debian omniorb-nameserver, omniorb): scripts/test.sh installs them and runs this"]
fn rtorb_binds_in_omninames_and_resolves_through_corbaname() {
    let ns = NameServer::start();
    let (server, servant, cubit) = cubit_server();
    let ior = server.object_to_string(&cubit).unwrap();

    // Bind `a/b` through the rtorb stubs: a new context, then the object.
    let orb = client::orb();
    let root = root_of(&orb, &ns);
    let a = root
        .bind_new_context(&naming::parse_name("a").unwrap())
        .unwrap()
        .expect("a context");
    a.bind(&naming::parse_name("b").unwrap(), &Some(cubit.clone()))
        .unwrap();
    // Rebinding replaces; binding again is AlreadyBound.
    root.rebind(&naming::parse_name("a/b").unwrap(), &Some(cubit.clone()))
        .unwrap();
    assert!(matches!(
        root.bind(&naming::parse_name("a/b").unwrap(), &Some(cubit.clone())),
        Err(naming::naming_context::BindError::AlreadyBound(_))
    ));
    assert_eq!(
        root.to_string(&naming::parse_name("a/b.k").unwrap())
            .unwrap(),
        "a/b.k"
    );

    // corbaname::host:port#a/b, from another ORB.
    let url = format!("corbaname::127.0.0.1:{}#a/b", ns.port);
    let resolved = orb.string_to_object(&url).unwrap();
    assert_eq!(resolved.type_id(), "IDL:Cubit:1.0");
    assert!(same_reference(
        &orb.object_to_string(&resolved).unwrap(),
        &ior
    ));
    assert_eq!(cube(resolved, 3), 27);

    // The key spelled out, and the name escaped as a URL.
    let spelled = format!("corbaname::127.0.0.1:{}/NameService#%61/b", ns.port);
    assert_eq!(cube(orb.string_to_object(&spelled).unwrap(), 4), 64);

    // A file:// holding the URL.
    let file = std::env::temp_dir().join(format!("rtorb-corbaname-{}.url", std::process::id()));
    std::fs::write(&file, format!("{url}\n")).unwrap();
    let from_file = orb.string_to_object(&format!("file://{}", file.display()));
    std::fs::remove_file(&file).ok();
    assert_eq!(cube(from_file.unwrap(), 5), 125);

    // corbaname:rir: through -ORBInitRef NameService=corbaloc:...
    let init_ref = format!("NameService={}", ns.corbaloc());
    let (rir_orb, _) = Orb::init(["client", "-ORBInitRef", init_ref.as_str()]).unwrap();
    for url in ["corbaname:rir:#a/b", "corbaname:rir:/NameService#a/b"] {
        assert_eq!(cube(rir_orb.string_to_object(url).unwrap(), 2), 8, "{url}");
    }

    // No name: the root context itself.
    let context: NamingContextExt = orb
        .string_to_object(&format!("corbaname::127.0.0.1:{}", ns.port))
        .unwrap()
        .unchecked_narrow();
    let again = context.resolve_str("a/b").unwrap().expect("an object");
    assert_eq!(cube(again, 6), 216);
    assert_eq!(servant.0.calls.load(Ordering::Relaxed), 6);

    // omniORB's nameclt sees what rtorb bound.
    let listing = ns.nameclt(&["list", "a"]);
    assert_eq!(listing.trim(), "b", "{listing}");
    let listing = ns.nameclt(&["list"]);
    assert_eq!(listing.trim(), "a/", "{listing}");
    assert!(same_reference(&ns.nameclt(&["resolve", "a/b"]), &ior));

    rir_orb.shutdown();
    orb.shutdown();
    server.shutdown();
}

#[test]
#[ignore = "needs omniORB's omniNames and nameclt (Debian omniorb-nameserver, omniorb): scripts/test.sh installs them and runs this"]
fn rtorb_resolves_and_lists_what_nameclt_bound() {
    let ns = NameServer::start();
    let (server, servant, cubit) = cubit_server();
    let ior = server.object_to_string(&cubit).unwrap();
    ns.nameclt(&["bind_new_context", "dev"]);
    ns.nameclt(&["bind", "dev/cubit.obj", &ior]);

    let orb = client::orb();
    let url = format!("corbaname::127.0.0.1:{}#dev/cubit.obj", ns.port);
    assert_eq!(cube(orb.string_to_object(&url).unwrap(), 7), 343);
    assert_eq!(servant.0.calls.load(Ordering::Relaxed), 1);

    // The listing through the rtorb stubs: `dev` is a context, in it
    // `cubit.obj` an object.
    let root = root_of(&orb, &ns);
    let (top, _) = root.list(10).unwrap();
    assert_eq!(top.len(), 1);
    assert_eq!(naming::name_to_string(&top[0].binding_name), "dev");
    assert_eq!(top[0].binding_type, BindingType::Ncontext);
    let dev: naming::NamingContext = root
        .resolve(&naming::parse_name("dev").unwrap())
        .unwrap()
        .expect("a context")
        .unchecked_narrow();
    let (inside, iterator) = dev.list(10).unwrap();
    assert!(iterator.is_none());
    assert_eq!(inside.len(), 1);
    assert_eq!(naming::name_to_string(&inside[0].binding_name), "cubit.obj");
    assert_eq!(inside[0].binding_type, BindingType::Nobject);

    orb.shutdown();
    server.shutdown();
}

fn assert_bad_param(e: &SystemException, parts: &[&str]) {
    assert_eq!(e.kind(), Some(SystemExceptionKind::BadParam), "{e}");
    assert_eq!(e.minor, BAD_PARAM_OTHER_URL_ERROR, "{e}");
    let text = e.to_string();
    for part in parts {
        assert!(text.contains(part), "{part:?} is not in {text}");
    }
}

#[test]
#[ignore = "needs omniORB's omniNames and nameclt (Debian omniorb-nameserver, omniorb): scripts/test.sh installs them and runs this"]
fn a_name_not_bound_and_a_naming_service_not_there_say_what_failed() {
    let ns = NameServer::start();
    let (server, _servant, cubit) = cubit_server();
    let orb = client::orb();
    let root = root_of(&orb, &ns);
    root.bind_new_context(&naming::parse_name("a").unwrap())
        .unwrap();
    root.bind(&naming::parse_name("a/b").unwrap(), &Some(cubit))
        .unwrap();
    let service = format!("127.0.0.1:{}/NameService", ns.port);
    let ns_port = ns.port;
    let url = |name: &str| format!("corbaname::127.0.0.1:{ns_port}#{name}");

    // The last component is missing.
    let e = orb.string_to_object(&url("a/nope")).unwrap_err();
    assert_bad_param(
        &e,
        &[
            "\"a/nope\"",
            &service,
            "NotFound (missing_node)",
            "\"nope\"",
        ],
    );
    // The first one is.
    let e = orb.string_to_object(&url("x/y")).unwrap_err();
    assert_bad_param(&e, &["\"x/y\"", "missing_node", "at \"x/y\""]);
    // A component that should be a context is an object.
    let e = orb.string_to_object(&url("a/b/c")).unwrap_err();
    assert_bad_param(&e, &["\"a/b/c\"", "not_context"]);

    // The same from a file: the file is named too, the exception kept.
    let file = std::env::temp_dir().join(format!("rtorb-unbound-{}.url", std::process::id()));
    std::fs::write(&file, url("a/nope")).unwrap();
    let e = orb
        .string_to_object(&format!("file://{}", file.display()))
        .unwrap_err();
    std::fs::remove_file(&file).ok();
    assert_bad_param(&e, &[&file.display().to_string(), "a/nope", "missing_node"]);

    // rir: without a NameService initial reference.
    let e = orb.string_to_object("corbaname:rir:#a/b").unwrap_err();
    assert_bad_param(&e, &["NameService"]);

    // No naming service there: TRANSIENT, naming the service.
    let port = free_port();
    let e = orb
        .string_to_object(&format!("corbaname::127.0.0.1:{port}#a/b"))
        .unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(&format!(
            "cannot reach the naming service corbaloc:iiop:127.0.0.1:{port}/NameService"
        )),
        "{text}"
    );
    // Nor, for a new client, after the one that was there is gone.
    drop(ns);
    let late = client::orb();
    let e = late.string_to_object(&url("a/b")).unwrap_err();
    assert_eq!(e.kind(), Some(SystemExceptionKind::Transient), "{e}");
    assert!(e.to_string().contains(&url("a/b")), "{e}");
    late.shutdown();

    orb.shutdown();
    server.shutdown();
}
