//! What the POA tests share: a servant that says who it is, or sleeps,
//! and the calls of its operations.
#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::time::Duration;

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::servant::{ServerRequest, Skeleton};
use rtorb_test_support::wait::Latch;

/// The repository id of [`Tagged`].
pub const TAGGED_ID: &str = "IDL:Tagged:1.0";

/// A servant whose `who` operation answers its tag, and whose `sleep`
/// operation takes the milliseconds it is given (a request that runs for a
/// while is what the tests of waiting for completion need), counting
/// `sleeping` down as it starts.
#[derive(Debug)]
pub struct Tagged {
    tag: u32,
    sleeping: Option<Arc<Latch>>,
}

impl Skeleton for Tagged {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TAGGED_ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "who" => {
                let tag = self.tag;
                req.write_results(|e| tag.encode(e))
            }
            "sleep" => {
                let ms = u32::decode(req.arguments())?;
                if let Some(sleeping) = &self.sleeping {
                    sleeping.count_down();
                }
                // The request's running time is what the caller asked for.
                std::thread::sleep(Duration::from_millis(ms.into()));
                req.write_results(|e| ms.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// A new `Tagged` servant as the skeleton a POA takes.
pub fn tagged(tag: u32) -> Arc<dyn Skeleton> {
    Arc::new(Tagged {
        tag,
        sleeping: None,
    })
}

/// A new `Tagged` servant that counts `sleeping` down whenever a `sleep`
/// call starts running in it.
pub fn tagged_announcing(tag: u32, sleeping: Arc<Latch>) -> Arc<dyn Skeleton> {
    Arc::new(Tagged {
        tag,
        sleeping: Some(sleeping),
    })
}

/// Calls `who`.
pub fn who(object: &Object) -> Result<u32, SystemException> {
    object
        .invoke("who", |_| Ok(()))?
        .decode::<u32, SystemException>(u32::decode)
}

/// Calls `sleep`.
pub fn sleep(object: &Object, ms: u32) -> Result<u32, SystemException> {
    object
        .invoke("sleep", |e| ms.encode(e))?
        .decode::<u32, SystemException>(u32::decode)
}
