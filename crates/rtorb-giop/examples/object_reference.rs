//! Object references: a `corbaloc:` URL becomes an IOR, the IOR is
//! stringified, parsed back, and its profiles and components printed.
//!
//! Run with `cargo run -p rtorb-giop --example object_reference [URL]`.

use rtorb_giop::{Corbaloc, ObjectReference};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "corbaloc:iiop:1.2@127.0.0.1:2809,iiop:1.0@[::1]/Cubit".into());
    let loc = Corbaloc::parse(&url)?;
    let reference = loc.to_ior("IDL:Cubit:1.0")?;
    let ior = reference.to_stringified()?;
    println!("{url}\n= {ior}\n");

    let back = ObjectReference::from_stringified(&ior)?;
    println!("type id: {}", back.type_id);
    for p in back.iiop_profiles() {
        println!(
            "IIOP {}.{} host {} port {} key {:?} ({} components)",
            p.version.major,
            p.version.minor,
            p.host,
            p.port,
            String::from_utf8_lossy(&p.object_key),
            p.components.len()
        );
    }
    println!("\nas JSON: {}", back.info().to_json());
    Ok(())
}
