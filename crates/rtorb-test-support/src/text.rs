//! A servant that echoes and returns text, narrow and wide, for the tests
//! of code sets.

use rtorb::exception::{SystemException, bad_operation};
use rtorb::servant::{ServerRequest, Skeleton};

/// The repository id of [`Text`].
pub const TEXT_ID: &str = "IDL:Text:1.0";

/// `echo(string)` and `wecho(wstring)` answer their argument with `!`
/// appended; `get()` returns [`Text::text`] as a `string`, `wget()` as a
/// `wstring`.
#[derive(Debug, Clone, Copy)]
pub struct Text {
    /// What `get` and `wget` return.
    pub text: &'static str,
}

impl Text {
    /// A servant whose `get` and `wget` return `text`.
    pub fn new(text: &'static str) -> Text {
        Text { text }
    }
}

impl Skeleton for Text {
    fn repository_ids(&self) -> &'static [&'static str] {
        &[TEXT_ID]
    }

    fn dispatch(&self, req: &mut ServerRequest<'_>) -> Result<(), SystemException> {
        match req.operation() {
            "echo" => {
                let s = req.arguments().read_string()?;
                req.write_results(|e| e.write_string(&format!("{s}!")))
            }
            "wecho" => {
                let w = req.arguments().read_wstring()?;
                req.write_results(|e| e.write_wstring(&format!("{w}!")))
            }
            "get" => req.write_results(|e| e.write_string(self.text)),
            "wget" => req.write_results(|e| e.write_wstring(self.text)),
            _ => Err(bad_operation()),
        }
    }
}
