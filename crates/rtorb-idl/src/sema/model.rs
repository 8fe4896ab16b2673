//! The resolved model of a specification: what the back end walks.
//!
//! Every named declaration is a [`Decl`] in [`Model::decls`], addressed by
//! its [`DeclId`]. Types are [`Type`] values that name declarations by
//! [`DeclId`], never by string, so no name is left to resolve. Declarations
//! keep their source order: [`Model::top`] and the `contents` lists of the
//! scopes list them as written, a reopened module once (at its first
//! opening) with the contents of every opening merged in order.

use std::fmt;

pub use crate::ast::{Direction, InterfaceKind, ValueKind};
use crate::diag::Location;

/// The index of a declaration in [`Model::decls`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclId(pub usize);

/// The analysed specification.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Every declaration, in the order they were met (a parent before its
    /// contents); a [`DeclId`] is an index into this list.
    pub decls: Vec<Decl>,
    /// The declarations at file level, in source order.
    pub top: Vec<DeclId>,
}

impl Model {
    /// The declaration `id`.
    ///
    /// # Panics
    ///
    /// If `id` does not come from this model.
    pub fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id.0]
    }

    /// The declaration with this scoped name (`["Cubit", "Many"]`), if any.
    /// Forward declarations are skipped when the full definition exists.
    pub fn lookup(&self, scoped_name: &[&str]) -> Option<DeclId> {
        let mut found = None;
        for (i, d) in self.decls.iter().enumerate() {
            if d.scoped_name.len() == scoped_name.len()
                && d.scoped_name.iter().zip(scoped_name).all(|(a, b)| a == b)
            {
                match &d.kind {
                    DeclKind::Forward(f) if f.definition.is_some() => {}
                    _ => found = found.or(Some(DeclId(i))),
                }
            }
        }
        found
    }

    /// `ty` with aliases (typedefs) followed to the type they name, for
    /// code that needs the underlying type rather than the alias.
    pub fn unalias<'a>(&'a self, mut ty: &'a Type) -> &'a Type {
        // A typedef can only name types declared before it, so the chain
        // ends; the bound guards against a malformed model.
        for _ in 0..self.decls.len() + 1 {
            match ty {
                Type::Named(id) => match self.decls.get(id.0).map(|d| &d.kind) {
                    Some(DeclKind::Alias(a)) => ty = &a.target,
                    _ => return ty,
                },
                _ => return ty,
            }
        }
        ty
    }
}

/// One named declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    /// Its identifier (without an escaping underscore).
    pub name: String,
    /// Its full scoped name, outermost first (`["CosNaming",
    /// "NamingContext"]`). An enumerator's scoped name is in the scope
    /// enclosing its enum, as IDL declares it.
    pub scoped_name: Vec<String>,
    /// Its repository id (`IDL:omg.org/CosNaming/NamingContext:1.0`), after
    /// `#pragma prefix`, `#pragma ID`, `#pragma version`, `typeid` and
    /// `typeprefix`. `None` for enumerators, which have none.
    pub repository_id: Option<String>,
    /// Documentation comment written before it.
    pub doc: Option<String>,
    /// Where its identifier is.
    pub location: Location,
    /// The enclosing declaration (module, interface, struct, ...), `None` at
    /// file level.
    pub parent: Option<DeclId>,
    /// What it declares.
    pub kind: DeclKind,
}

/// What a declaration declares.
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// A module.
    Module(ModuleDef),
    /// An interface with a body.
    Interface(InterfaceDef),
    /// A forward declaration (`interface I;`, `struct S;`, `union U;`,
    /// `valuetype V;`).
    Forward(ForwardDef),
    /// A struct.
    Struct(StructDef),
    /// A union.
    Union(UnionDef),
    /// An enum.
    Enum(EnumDef),
    /// An enumerator of an enum.
    Enumerator(EnumeratorDef),
    /// A typedef name (one per declarator: `typedef long a, b[2];` gives
    /// two aliases).
    Alias(AliasDef),
    /// `native N;`
    Native,
    /// A constant.
    Const(ConstDef),
    /// An exception.
    Exception(ExceptionDef),
    /// A value type with a body.
    ValueType(ValueDef),
    /// A value box.
    ValueBox(ValueBoxDef),
}

/// A module; its openings merged.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModuleDef {
    /// The declarations of every opening, in source order.
    pub contents: Vec<DeclId>,
}

/// A forward declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct ForwardDef {
    /// What is forward-declared.
    pub of: ForwardKind,
    /// The full definition, when the specification has one. [`Type`]s
    /// always name the definition when there is one, and the forward
    /// declaration only when there is none.
    pub definition: Option<DeclId>,
}

/// What a forward declaration announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ForwardKind {
    /// An interface of this kind.
    Interface(InterfaceKind),
    /// A struct.
    Struct,
    /// A union.
    Union,
    /// A value type (`true`: abstract).
    Value(bool),
}

/// An interface.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceDef {
    /// Plain, abstract or local.
    pub kind: InterfaceKind,
    /// The direct bases, as listed.
    pub bases: Vec<DeclId>,
    /// Every ancestor once: a depth-first walk of the bases, left to
    /// right, each interface at its first visit (for `D : B, C` with
    /// `B : A`, `C : A`: `[B, A, C]`).
    pub all_bases: Vec<DeclId>,
    /// Types, constants and exceptions declared inside, in source order.
    pub contents: Vec<DeclId>,
    /// Its own operations in source order, then the inherited ones, base
    /// by base in [`InterfaceDef::all_bases`] order.
    pub operations: Vec<Operation>,
    /// Its own attributes, then the inherited ones, in the same order as
    /// operations.
    pub attributes: Vec<Attribute>,
}

/// An operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// Its name.
    pub name: String,
    /// Its repository id.
    pub repository_id: String,
    /// Whether it is `oneway`.
    pub oneway: bool,
    /// The result; `None` for `void`.
    pub result: Option<Type>,
    /// Its parameters.
    pub params: Vec<Param>,
    /// The exceptions it may raise.
    pub raises: Vec<DeclId>,
    /// Its `context` strings.
    pub context: Vec<String>,
    /// The interface (or value type) that declares it.
    pub defined_in: DeclId,
    /// Whether it comes from a base (`defined_in` is not the owner).
    pub inherited: bool,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where its name is.
    pub location: Location,
}

/// A parameter of an operation or factory.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// `in`, `out` or `inout`.
    pub direction: Direction,
    /// Its type.
    pub ty: Type,
    /// Where its name is.
    pub location: Location,
}

/// An attribute (one per name: `attribute long a, b;` gives two).
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its repository id.
    pub repository_id: String,
    /// Whether it is `readonly`.
    pub readonly: bool,
    /// Its type.
    pub ty: Type,
    /// Exceptions raised by the getter.
    pub get_raises: Vec<DeclId>,
    /// Exceptions raised by the setter.
    pub set_raises: Vec<DeclId>,
    /// The interface (or value type) that declares it.
    pub defined_in: DeclId,
    /// Whether it comes from a base.
    pub inherited: bool,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where its name is.
    pub location: Location,
}

/// A struct.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// Its members, in order.
    pub members: Vec<Member>,
    /// Types declared in place inside it.
    pub contents: Vec<DeclId>,
}

/// A member of a struct or exception (one per declarator).
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its name.
    pub name: String,
    /// Its type ([`Type::Array`] for an array declarator).
    pub ty: Type,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where its name is.
    pub location: Location,
}

/// A union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDef {
    /// The discriminator type (possibly an alias).
    pub discriminator: Type,
    /// The cases, in order.
    pub cases: Vec<UnionCase>,
    /// The index in `cases` of the `default:` case, if any.
    pub default_case: Option<usize>,
    /// Whether the labels cover every discriminator value (only possible
    /// for `boolean`, `char` and enums); when not and there is no default
    /// case, a union may hold no member (the implicit default).
    pub covers_all: bool,
    /// Types declared in place inside it.
    pub contents: Vec<DeclId>,
}

/// A union case.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionCase {
    /// Its label values, typed as the discriminator (for an enum
    /// discriminator, [`ConstValue::Enumerator`]).
    pub labels: Vec<ConstValue>,
    /// Whether `default:` is among its labels.
    pub is_default: bool,
    /// The element name.
    pub name: String,
    /// The element type.
    pub ty: Type,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the element name is.
    pub location: Location,
}

/// An enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// Its enumerators ([`DeclKind::Enumerator`]), in order.
    pub enumerators: Vec<DeclId>,
}

/// An enumerator.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumeratorDef {
    /// The enum it belongs to.
    pub of: DeclId,
    /// Its ordinal (the value on the wire).
    pub value: u32,
}

/// A typedef name.
#[derive(Debug, Clone, PartialEq)]
pub struct AliasDef {
    /// The type it names (itself possibly an alias: the chain is kept).
    pub target: Type,
}

/// A constant.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstDef {
    /// Its declared type (possibly an alias).
    pub ty: Type,
    /// Its value, of the variant matching the type.
    pub value: ConstValue,
}

/// An exception.
#[derive(Debug, Clone, PartialEq)]
pub struct ExceptionDef {
    /// Its members, in order.
    pub members: Vec<Member>,
    /// Types declared in place inside it.
    pub contents: Vec<DeclId>,
}

/// A value type.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueDef {
    /// Plain, abstract or custom.
    pub kind: ValueKind,
    /// Whether the first base is `truncatable`.
    pub truncatable: bool,
    /// The direct value bases, as listed.
    pub bases: Vec<DeclId>,
    /// Every value ancestor once, in the order of
    /// [`InterfaceDef::all_bases`].
    pub all_bases: Vec<DeclId>,
    /// The supported interfaces, as listed.
    pub supports: Vec<DeclId>,
    /// The state members, in order.
    pub members: Vec<StateMember>,
    /// The factories (initialisers).
    pub factories: Vec<Factory>,
    /// Own operations, then those of value bases (flagged inherited).
    /// Operations of supported interfaces are in their
    /// [`InterfaceDef::operations`].
    pub operations: Vec<Operation>,
    /// Own attributes, then those of value bases.
    pub attributes: Vec<Attribute>,
    /// Types, constants and exceptions declared inside.
    pub contents: Vec<DeclId>,
}

/// A state member of a value type.
#[derive(Debug, Clone, PartialEq)]
pub struct StateMember {
    /// `public` (true) or `private`.
    pub public: bool,
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where its name is.
    pub location: Location,
}

/// A factory of a value type.
#[derive(Debug, Clone, PartialEq)]
pub struct Factory {
    /// Its name.
    pub name: String,
    /// Its parameters (all `in`).
    pub params: Vec<Param>,
    /// The exceptions it may raise.
    pub raises: Vec<DeclId>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where its name is.
    pub location: Location,
}

/// A value box.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueBoxDef {
    /// The boxed type.
    pub boxed: Type,
}

/// A resolved type.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `short`
    Short,
    /// `long`
    Long,
    /// `long long`
    LongLong,
    /// `unsigned short`
    UShort,
    /// `unsigned long`
    ULong,
    /// `unsigned long long`
    ULongLong,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `long double`
    LongDouble,
    /// `char`
    Char,
    /// `wchar`
    WChar,
    /// `boolean`
    Boolean,
    /// `octet`
    Octet,
    /// `any`
    Any,
    /// `Object` (`CORBA::Object`)
    Object,
    /// `ValueBase`
    ValueBase,
    /// `TypeCode` or `CORBA::TypeCode` (tk_TypeCode), when the
    /// specification does not declare its own.
    TypeCode,
    /// `string`, with its bound if any.
    String(Option<u32>),
    /// `wstring`, with its bound if any.
    WString(Option<u32>),
    /// `sequence<T>` or `sequence<T, N>`.
    Sequence {
        /// The element type.
        element: Box<Type>,
        /// The bound, if any.
        bound: Option<u32>,
    },
    /// `fixed<digits, scale>`; plain `fixed` (constants only) is
    /// `Fixed { digits: 0, scale: 0 }`.
    Fixed {
        /// Total digits (1 to 31).
        digits: u8,
        /// Digits after the point.
        scale: u8,
    },
    /// An array declarator: `element` with dimensions, outermost first.
    Array {
        /// The element type.
        element: Box<Type>,
        /// The dimensions, outermost first, each at least 1.
        dims: Vec<u32>,
    },
    /// A declared type: struct, union, enum, alias, interface, value type,
    /// value box, native, or a forward declaration that is never defined.
    Named(DeclId),
}

/// The value of a constant or union label.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// `short`
    Short(i16),
    /// `unsigned short`
    UShort(u16),
    /// `long`
    Long(i32),
    /// `unsigned long`
    ULong(u32),
    /// `long long`
    LongLong(i64),
    /// `unsigned long long`
    ULongLong(u64),
    /// `octet`
    Octet(u8),
    /// `float`
    Float(f32),
    /// `double`
    Double(f64),
    /// `long double` (held as a double).
    LongDouble(f64),
    /// `char`
    Char(char),
    /// `wchar`
    WChar(char),
    /// `boolean`
    Boolean(bool),
    /// `string`
    String(String),
    /// `wstring`
    WString(String),
    /// `fixed`
    Fixed(FixedValue),
    /// An enumerator ([`DeclKind::Enumerator`]).
    Enumerator(DeclId),
}

/// A fixed-point value: `digits × 10^-scale`, at most 31 digits, without
/// trailing zeros after the point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedValue {
    /// The unscaled value.
    pub digits: i128,
    /// How many of its digits are after the point.
    pub scale: u8,
}

impl FixedValue {
    /// How many digits the value has (at least 1).
    pub fn digit_count(&self) -> u32 {
        let mut n = self.digits.unsigned_abs();
        let mut count = 1;
        while n >= 10 {
            n /= 10;
            count += 1;
        }
        count.max(u32::from(self.scale))
    }
}

impl fmt::Display for FixedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.digits.unsigned_abs().to_string();
        let scale = usize::from(self.scale);
        let sign = if self.digits < 0 { "-" } else { "" };
        if scale == 0 {
            return write!(f, "{sign}{text}");
        }
        let padded = format!("{text:0>width$}", width = scale + 1);
        let (int, frac) = padded.split_at(padded.len() - scale);
        write!(f, "{sign}{int}.{frac}")
    }
}
