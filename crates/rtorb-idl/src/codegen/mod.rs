//! The Rust back end: Rust items from the resolved [`Model`].
//!
//! [`generate`] writes one self-contained Rust source text (formatted by
//! `prettyplease`) for a whole model, meant for `include!` inside any
//! module of a crate that depends on `rtorb` alone: every path it uses
//! is absolute, through the one re-export module `::rtorb::codegen` (or
//! `::std`), or relative to the including module (`super::...`).
//!
//! | IDL | Rust |
//! | --- | --- |
//! | `module m` | `pub mod m` |
//! | `const T N = v;` | `pub const N: T = v;` (`string`, `wstring` and `fixed` constants as `&str`; `long double` as `f64`) |
//! | `struct S` | `pub struct S` deriving `Debug, Clone`, `PartialEq` unless it holds object references, `Default` when every member has one; `CdrEncode`/`CdrDecode`, `IdlType` |
//! | `enum E` | `#[repr(u32)] pub enum E`, an `unsigned long` on the wire; out-of-range values are `CdrError::InvalidEnum` |
//! | `union U` | `pub enum U` with a variant per case holding the member, the `default` case holding `(discriminator, member)`, and, without a default when the labels do not cover every value, a `NoMember(discriminator)` variant |
//! | `typedef T A;` | `pub type A = T;` and `pub fn a_type_code()` (`tk_alias`) |
//! | `sequence<octet>` | `rtorb_cdr::Bytes` |
//! | `sequence<T>`, `string`, `T a[N]` | `Vec<T>`, `String`, `[T; N]`; bounds are checked where values are written and read |
//! | `exception X` | a struct like `S`, with `UserException`, `Display`, `Error` |
//! | `any`, `TypeCode`, `fixed`, `long double` | `rtorb_cdr::{Any, TypeCode, Fixed, LongDouble}` |
//! | `Object`, `interface I` (as a type) | `Option<rtorb::object::Object>`, `Option<I>` |
//! | `interface I` | stub `I`, servant trait `IServant`, skeleton `ISkeleton<S>`, and `pub mod i` with the types declared inside, an error enum per operation with `raises`, `REPOSITORY_IDS` and `dispatch` |
//! | `abstract interface A` | as an interface (stub, servant trait, skeleton); as a type `Option<rtorb::value::Abstract<A>>`, an object reference or a value |
//! | `local interface L` | trait `L` and `pub mod l`; as a type `Option<rtorb::object::Local<dyn L>>`; never marshalled |
//! | `valuetype V` | state struct `V`, trait `VValue`, `pub mod v`, `VOperations` (supertraits: the servant traits of the supported interfaces) and `VInit` traits for operations and factories; as a type `Option<Arc<dyn VValue>>` (shared values are one `Arc`) |
//! | `abstract valuetype A` | trait `AValue`; as a type `Option<Arc<dyn AValue>>` |
//! | `valuetype B T;` (box) | `pub struct B(pub T)`; as a type `Option<B>` |
//! | `native N` | `pub struct N(pub rtorb::value::Opaque)`; never marshalled |
//! | `ValueBase` | `Option<Arc<dyn rtorb_cdr::valuetype::ValueBase>>` |
//!
//! `custom` valuetypes are reported as errors, and so is an operation of an
//! interface that is not local whose parameters or result hold a native
//! type or a local interface. A valuetype that `supports` interfaces gets
//! their operations to implement, as in the C++ and Java mappings: its
//! `VOperations` trait has their servant traits (`IServant`, or the trait
//! of a local interface) as supertraits, so the Rust type of the value
//! implements both and can be activated as an object of a supported
//! interface (`ISkeleton(value)`); as a type, a value is passed as an
//! abstract interface it supports through `rtorb::value::Abstract`. See
//! `rtorb::value` for the sharing and factory rules.

mod dispatch;
mod emit;
mod interface;
pub mod names;
mod types;
mod value;

use crate::diag::Diagnostic;
use crate::sema::Model;

pub use dispatch::{Dispatch, TABLE_THRESHOLD};

/// The Rust source text for `model`, or the constructs it cannot map,
/// with [`Dispatch::Auto`].
pub fn generate(model: &Model) -> Result<String, Vec<Diagnostic>> {
    generate_with(model, Dispatch::Auto)
}

/// The Rust source text for `model`, with skeletons dispatching as
/// `dispatch` says.
pub fn generate_with(model: &Model, dispatch: Dispatch) -> Result<String, Vec<Diagnostic>> {
    let mut g = emit::Gen::new(model);
    g.dispatch = dispatch;
    let text = g.scope(&model.top, &[]);
    if !g.diags.is_empty() {
        return Err(g.diags);
    }
    match syn::parse_file(&text) {
        Ok(file) => Ok(prettyplease::unparse(&file)),
        Err(e) => Err(vec![Diagnostic::error(
            crate::diag::Location::new("<generated>", 0, 0),
            format!("internal error: generated code does not parse: {e}"),
        )]),
    }
}
