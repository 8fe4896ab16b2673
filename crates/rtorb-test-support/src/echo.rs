//! A servant whose `echo` operation returns the `long` it is given, for
//! tests about connections and threads rather than about operations.

use rtorb::cdr::{CdrDecode, CdrEncode};
use rtorb::exception::{SystemException, bad_operation};
use rtorb::object::Object;
use rtorb::servant::{ServerRequest, Skeleton};

/// The repository id of [`Echo`].
pub const ECHO_ID: &str = "IDL:rtorb/Echo:1.0";

/// Answers `echo(long)` with its argument.
#[derive(Debug, Default, Clone, Copy)]
pub struct Echo;

impl Skeleton for Echo {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[ECHO_ID]
    }
    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "echo" => {
                let v = i32::decode(req.arguments())?;
                req.write_results(|e| v.encode(e))
            }
            _ => Err(bad_operation()),
        }
    }
}

/// Calls `echo(v)` on `obj`.
pub fn echo(obj: &Object, v: i32) -> Result<i32, SystemException> {
    obj.invoke("echo", |e| v.encode(e))?.decode(i32::decode)
}
