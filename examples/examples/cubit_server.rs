//! A Cubit server on the rtorb ORB.
//!
//! ```text
//! cargo run --release -p rtorb-examples --example cubit_server -- iiop://127.0.0.1:12345 uiop:///tmp/cubit.sock
//! cargo run --release -p rtorb-examples --example cubit_server -- -ORBServerStrategy reactive iiop://127.0.0.1:12345
//! ```
//!
//! Serves the Cubit object under the key `Cubit` on every endpoint given
//! (default `iiop://127.0.0.1:12345`), prints its IOR and a `corbaloc`
//! URL, and runs until a client calls the oneway `shutdown`. `-ORB` options
//! (see `OrbConfig::apply_args`) and the configuration file that
//! `-ORBConfigFile` or `RTORB_CONFIG` names configure the ORB, for example
//! its server concurrency strategy.

use std::sync::Arc;
use std::sync::mpsc;

use rtorb::orb::{Orb, OrbConfig};
use rtorb_examples::Cuber;
use rtorb_examples::cubit_idl::CubitSkeleton;

fn main() {
    // The `-ORB` options (and a configuration file), and the program's
    // own arguments, without its name.
    let (mut config, endpoints) = match OrbConfig::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cubit_server: {e}");
            std::process::exit(2);
        }
    };
    config.listen.extend(endpoints);
    if config.listen.is_empty() {
        config.listen.push("iiop://127.0.0.1:12345".to_owned());
    }
    let strategy = config.server_strategy;
    let orb = match Orb::builder_with(config).build() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cubit_server: {e}");
            std::process::exit(1);
        }
    };
    let (shutdown, shutdown_called) = mpsc::channel();
    let cubit = Arc::new(CubitSkeleton(Cuber::new(shutdown)));
    let obj = orb
        .activate_with_key(&b"Cubit"[..], cubit)
        .unwrap_or_else(|e| {
            eprintln!("cubit_server: {e}");
            std::process::exit(1);
        });
    println!("{}", orb.object_to_string(&obj).unwrap_or_default());
    for e in orb.endpoints() {
        println!("listening on {e} (object key Cubit, {strategy} server)");
    }
    // Until a client calls `shutdown`.
    let _ = shutdown_called.recv();
    orb.shutdown();
    println!("shut down");
}
