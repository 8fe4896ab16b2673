//! The syntax tree of an IDL 3 specification.
//!
//! Plain structs and enums with owned strings, so that later stages can
//! walk it with `match`. Every node that an error can name carries the
//! [`Location`] where it starts; declarations carry the documentation
//! comment written just before them.

use crate::diag::Location;

/// A whole IDL file: its definitions, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Specification {
    /// The top-level definitions.
    pub definitions: Vec<Definition>,
}

/// An identifier as declared.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Identifier {
    /// The name, without an escaping underscore.
    pub name: String,
    /// Whether it was written `_name` (an escaped identifier, which may
    /// spell a keyword).
    pub escaped: bool,
    /// Where it is.
    pub location: Location,
}

/// A name such as `A`, `A::B` or `::A::B`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopedName {
    /// Whether it starts with `::` (resolved from the global scope).
    pub absolute: bool,
    /// The identifiers, outermost first, without escaping underscores.
    pub parts: Vec<String>,
    /// Where it starts.
    pub location: Location,
}

impl std::fmt::Display for ScopedName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.absolute {
            f.write_str("::")?;
        }
        f.write_str(&self.parts.join("::"))
    }
}

/// A definition at file or module level.
#[derive(Debug, Clone, PartialEq)]
pub enum Definition {
    /// `module M { ... };` (a module may be reopened: each opening is one
    /// definition).
    Module(Module),
    /// `interface I : Base { ... };`
    Interface(Interface),
    /// `interface I;`
    InterfaceForward(InterfaceForward),
    /// `valuetype V { ... };`
    ValueType(ValueType),
    /// `valuetype V long;`
    ValueBox(ValueBox),
    /// `valuetype V;`
    ValueForward(ValueForward),
    /// `typedef`, `struct`, `union`, `enum`, `native`, or a struct or
    /// union forward declaration.
    Type(TypeDcl),
    /// `const T NAME = expr;`
    Const(Const),
    /// `exception E { ... };`
    Except(Except),
    /// `typeid Name "id";`
    TypeId(TypeId),
    /// `typeprefix Name "prefix";`
    TypePrefix(TypePrefix),
    /// `#pragma prefix`, `ID` or `version`, where it appeared.
    Pragma(Pragma),
}

/// A module.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// Its name.
    pub name: Identifier,
    /// What it contains.
    pub definitions: Vec<Definition>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// Which kind of interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InterfaceKind {
    /// `interface`
    Plain,
    /// `abstract interface`
    Abstract,
    /// `local interface`
    Local,
}

/// An interface declaration with a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Interface {
    /// Plain, abstract or local.
    pub kind: InterfaceKind,
    /// Its name.
    pub name: Identifier,
    /// The interfaces it inherits from.
    pub inherits: Vec<ScopedName>,
    /// Its body.
    pub body: Vec<Export>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A forward declaration of an interface.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceForward {
    /// Plain, abstract or local.
    pub kind: InterfaceKind,
    /// Its name.
    pub name: Identifier,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A declaration inside an interface (or a value type).
#[derive(Debug, Clone, PartialEq)]
pub enum Export {
    /// A type declaration.
    Type(TypeDcl),
    /// A constant.
    Const(Const),
    /// An exception.
    Except(Except),
    /// An attribute.
    Attribute(Attribute),
    /// An operation.
    Operation(Operation),
    /// `typeid`
    TypeId(TypeId),
    /// `typeprefix`
    TypePrefix(TypePrefix),
    /// A `#pragma`, where it appeared.
    Pragma(Pragma),
}

/// Which kind of value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `valuetype`
    Plain,
    /// `abstract valuetype`
    Abstract,
    /// `custom valuetype`
    Custom,
}

/// A value type with a body.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueType {
    /// Plain, abstract or custom.
    pub kind: ValueKind,
    /// Its name.
    pub name: Identifier,
    /// Whether the (first) base is `truncatable`.
    pub truncatable: bool,
    /// The value types it inherits from.
    pub inherits: Vec<ScopedName>,
    /// The interfaces it supports.
    pub supports: Vec<ScopedName>,
    /// Its body.
    pub body: Vec<ValueElement>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A declaration inside a value type.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueElement {
    /// An export, as in an interface.
    Export(Export),
    /// `public T a;` or `private T a;`
    State(StateMember),
    /// `factory create(in T a) raises (E);`
    Factory(Factory),
}

/// A state member of a value type.
#[derive(Debug, Clone, PartialEq)]
pub struct StateMember {
    /// `public` (true) or `private` (false).
    pub public: bool,
    /// Its type.
    pub type_spec: TypeSpec,
    /// The members declared.
    pub declarators: Vec<Declarator>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// An initialiser of a value type.
#[derive(Debug, Clone, PartialEq)]
pub struct Factory {
    /// Its name.
    pub name: Identifier,
    /// Its parameters (all `in`).
    pub params: Vec<Param>,
    /// The exceptions it may raise.
    pub raises: Vec<ScopedName>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A value box: `valuetype Name Type;`
#[derive(Debug, Clone, PartialEq)]
pub struct ValueBox {
    /// Its name.
    pub name: Identifier,
    /// The boxed type.
    pub type_spec: TypeSpec,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A forward declaration of a value type.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueForward {
    /// Whether it is `abstract valuetype`.
    pub is_abstract: bool,
    /// Its name.
    pub name: Identifier,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A type declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeDcl {
    /// `typedef T a, b[3];`
    Typedef(Typedef),
    /// `struct S { ... };`
    Struct(StructType),
    /// `union U switch (T) { ... };`
    Union(UnionType),
    /// `enum E { ... };`
    Enum(EnumType),
    /// `native N;`
    Native(Native),
    /// `struct S;`
    StructForward(TypeForward),
    /// `union U;`
    UnionForward(TypeForward),
}

/// A typedef.
#[derive(Debug, Clone, PartialEq)]
pub struct Typedef {
    /// The aliased type.
    pub type_spec: TypeSpec,
    /// The names declared.
    pub declarators: Vec<Declarator>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A declared name, with array dimensions (`a[3][4]`) if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Declarator {
    /// The name.
    pub name: Identifier,
    /// The array dimensions, outermost first (empty for a simple
    /// declarator).
    pub array_sizes: Vec<ConstExpr>,
}

/// A struct type.
#[derive(Debug, Clone, PartialEq)]
pub struct StructType {
    /// Its name.
    pub name: Identifier,
    /// Its members.
    pub members: Vec<Member>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A member of a struct or exception: one type, one or more names.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The type.
    pub type_spec: TypeSpec,
    /// The names.
    pub declarators: Vec<Declarator>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A discriminated union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionType {
    /// Its name.
    pub name: Identifier,
    /// The discriminator type.
    pub switch_type: TypeSpec,
    /// Its cases.
    pub cases: Vec<Case>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A union case: one or more labels, one element.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Its labels.
    pub labels: Vec<CaseLabel>,
    /// The element's type.
    pub type_spec: TypeSpec,
    /// The element's name.
    pub declarator: Declarator,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the case starts.
    pub location: Location,
}

/// A union case label.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseLabel {
    /// `case expr:`
    Value(ConstExpr),
    /// `default:`
    Default(Location),
}

/// An enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumType {
    /// Its name.
    pub name: Identifier,
    /// Its enumerators, in order.
    pub enumerators: Vec<Enumerator>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// One enumerator.
#[derive(Debug, Clone, PartialEq)]
pub struct Enumerator {
    /// Its name.
    pub name: Identifier,
    /// Documentation comment.
    pub doc: Option<String>,
}

/// A native type declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Native {
    /// Its name.
    pub name: Identifier,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A struct or union forward declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeForward {
    /// Its name.
    pub name: Identifier,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// A constant declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Const {
    /// Its type (may be [`TypeKind::FixedAny`]).
    pub type_spec: TypeSpec,
    /// Its name.
    pub name: Identifier,
    /// Its value, not yet evaluated.
    pub value: ConstExpr,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// An exception declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Except {
    /// Its name.
    pub name: Identifier,
    /// Its members.
    pub members: Vec<Member>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// An attribute declaration (`attribute T a, b;`).
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Whether it is `readonly`.
    pub readonly: bool,
    /// Its type.
    pub type_spec: TypeSpec,
    /// The attribute names.
    pub names: Vec<Identifier>,
    /// Exceptions raised when reading: `getraises (...)`, or the
    /// `raises (...)` of a readonly attribute.
    pub get_raises: Vec<ScopedName>,
    /// Exceptions raised when writing: `setraises (...)`.
    pub set_raises: Vec<ScopedName>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// An operation declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// Whether it is `oneway`.
    pub oneway: bool,
    /// The result type; `None` for `void`.
    pub return_type: Option<TypeSpec>,
    /// Its name.
    pub name: Identifier,
    /// Its parameters.
    pub params: Vec<Param>,
    /// The exceptions it may raise.
    pub raises: Vec<ScopedName>,
    /// The `context (...)` strings.
    pub context: Vec<String>,
    /// Documentation comment.
    pub doc: Option<String>,
    /// Where the declaration starts.
    pub location: Location,
}

/// The direction of a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout`
    InOut,
}

/// An operation or factory parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its direction.
    pub direction: Direction,
    /// Its type.
    pub type_spec: TypeSpec,
    /// Its name.
    pub name: Identifier,
    /// Where it starts.
    pub location: Location,
}

/// `typeid Name "id";`
#[derive(Debug, Clone, PartialEq)]
pub struct TypeId {
    /// The named declaration.
    pub name: ScopedName,
    /// The repository id.
    pub id: String,
    /// Where the declaration starts.
    pub location: Location,
}

/// `typeprefix Name "prefix";`
#[derive(Debug, Clone, PartialEq)]
pub struct TypePrefix {
    /// The named module or type.
    pub name: ScopedName,
    /// The prefix.
    pub prefix: String,
    /// Where the declaration starts.
    pub location: Location,
}

/// A `#pragma` that IDL defines.
#[derive(Debug, Clone, PartialEq)]
pub struct Pragma {
    /// Which pragma.
    pub kind: PragmaKind,
    /// Where the `#` is.
    pub location: Location,
}

/// The pragmas that IDL defines.
#[derive(Debug, Clone, PartialEq)]
pub enum PragmaKind {
    /// `#pragma prefix "omg.org"`
    Prefix(String),
    /// `#pragma ID Name "IDL:x/Name:1.0"`
    Id {
        /// The named declaration.
        name: ScopedName,
        /// The repository id.
        id: String,
    },
    /// `#pragma version Name 1.2`
    Version {
        /// The named declaration.
        name: ScopedName,
        /// Major version.
        major: u16,
        /// Minor version.
        minor: u16,
    },
}

/// A type as written in a declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeSpec {
    /// Which type.
    pub kind: TypeKind,
    /// Where it is written.
    pub location: Location,
}

/// The types that can be written.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// A basic type.
    Base(BaseType),
    /// `string` or `string<bound>`.
    String(Option<Box<ConstExpr>>),
    /// `wstring` or `wstring<bound>`.
    WString(Option<Box<ConstExpr>>),
    /// `sequence<T>` or `sequence<T, bound>`.
    Sequence {
        /// The element type.
        element: Box<TypeSpec>,
        /// The bound, if any.
        bound: Option<Box<ConstExpr>>,
    },
    /// `fixed<digits, scale>`.
    Fixed {
        /// Total number of digits.
        digits: Box<ConstExpr>,
        /// Digits after the point.
        scale: Box<ConstExpr>,
    },
    /// Plain `fixed`, allowed as the type of a constant.
    FixedAny,
    /// A named type.
    Scoped(ScopedName),
    /// A struct declared in place.
    Struct(Box<StructType>),
    /// A union declared in place.
    Union(Box<UnionType>),
    /// An enum declared in place.
    Enum(Box<EnumType>),
}

/// The basic types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaseType {
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
    /// `Object`
    Object,
    /// `ValueBase`
    ValueBase,
}

/// A constant expression, not yet evaluated.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstExpr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts (for a binary expression, where its operator is).
    pub location: Location,
}

/// The forms of constant expressions.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `lhs op rhs`
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<ConstExpr>,
        /// Right operand.
        rhs: Box<ConstExpr>,
    },
    /// `op operand`
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<ConstExpr>,
    },
    /// A named constant or enumerator.
    Name(ScopedName),
    /// A literal.
    Literal(Literal),
}

/// Binary operators, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `&`
    And,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `~`
    Not,
}

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// An integer.
    Integer(u64),
    /// A floating-point number.
    Float(f64),
    /// A fixed-point number: digits with the point, as written (`"1.50"`).
    Fixed(String),
    /// A character.
    Char(char),
    /// A wide character.
    WChar(char),
    /// A string (adjacent literals joined).
    String(String),
    /// A wide string (adjacent literals joined).
    WString(String),
    /// `TRUE` or `FALSE`.
    Boolean(bool),
}
