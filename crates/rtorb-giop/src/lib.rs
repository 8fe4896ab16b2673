//! # rtorb-giop: GIOP and GIOPlite messages, IORs and corbaloc
//!
//! The ORB messaging protocol of rtorb, sans I/O: message headers and
//! bodies of GIOP 1.0, 1.1 and 1.2 and of GIOPlite, service contexts,
//! fragmentation and reassembly, a framing API for transports, and object
//! references (IORs, IIOP profiles, tagged components, `corbaloc:` and
//! `corbaname:` URLs).

pub mod corbaloc;
pub mod exception;
pub mod fragment;
pub mod framing;
pub mod header;
pub mod ior;
pub mod lite;
pub mod message;
pub mod service_context;
pub mod target;

pub use corbaloc::{Corbaloc, Corbaname, ObjectUrl, UrlError, parse_object_url};
pub use ior::{IorError, ObjectReference};
