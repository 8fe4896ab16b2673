//! The kinds of TypeCodes ([`TCKind`]) and the numbers a valuetype's
//! TypeCode carries (value modifiers and member visibility).

/// The kind of a TypeCode, with the numbers CDR gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum TCKind {
    /// `tk_null` (0): no type.
    Null = 0,
    /// `tk_void` (1).
    Void = 1,
    /// `tk_short` (2).
    Short = 2,
    /// `tk_long` (3).
    Long = 3,
    /// `tk_ushort` (4).
    UShort = 4,
    /// `tk_ulong` (5).
    ULong = 5,
    /// `tk_float` (6).
    Float = 6,
    /// `tk_double` (7).
    Double = 7,
    /// `tk_boolean` (8).
    Boolean = 8,
    /// `tk_char` (9).
    Char = 9,
    /// `tk_octet` (10).
    Octet = 10,
    /// `tk_any` (11).
    Any = 11,
    /// `tk_TypeCode` (12).
    TypeCode = 12,
    /// `tk_Principal` (13), a `sequence<octet>` on the wire.
    Principal = 13,
    /// `tk_objref` (14).
    ObjRef = 14,
    /// `tk_struct` (15).
    Struct = 15,
    /// `tk_union` (16).
    Union = 16,
    /// `tk_enum` (17).
    Enum = 17,
    /// `tk_string` (18).
    String = 18,
    /// `tk_sequence` (19).
    Sequence = 19,
    /// `tk_array` (20).
    Array = 20,
    /// `tk_alias` (21): a typedef.
    Alias = 21,
    /// `tk_except` (22).
    Except = 22,
    /// `tk_longlong` (23).
    LongLong = 23,
    /// `tk_ulonglong` (24).
    ULongLong = 24,
    /// `tk_longdouble` (25).
    LongDouble = 25,
    /// `tk_wchar` (26).
    WChar = 26,
    /// `tk_wstring` (27).
    WString = 27,
    /// `tk_fixed` (28).
    Fixed = 28,
    /// `tk_value` (29): a valuetype.
    Value = 29,
    /// `tk_value_box` (30).
    ValueBox = 30,
    /// `tk_native` (31).
    Native = 31,
    /// `tk_abstract_interface` (32).
    AbstractInterface = 32,
    /// `tk_local_interface` (33).
    LocalInterface = 33,
    /// `tk_component` (34).
    Component = 34,
    /// `tk_home` (35).
    Home = 35,
    /// `tk_event` (36): an eventtype.
    Event = 36,
}

impl TCKind {
    /// The kind word that marks a TypeCode indirection on the wire.
    pub const INDIRECTION: u32 = 0xffff_ffff;

    /// Every kind, by its number.
    pub(crate) const ALL: [TCKind; 37] = [
        TCKind::Null,
        TCKind::Void,
        TCKind::Short,
        TCKind::Long,
        TCKind::UShort,
        TCKind::ULong,
        TCKind::Float,
        TCKind::Double,
        TCKind::Boolean,
        TCKind::Char,
        TCKind::Octet,
        TCKind::Any,
        TCKind::TypeCode,
        TCKind::Principal,
        TCKind::ObjRef,
        TCKind::Struct,
        TCKind::Union,
        TCKind::Enum,
        TCKind::String,
        TCKind::Sequence,
        TCKind::Array,
        TCKind::Alias,
        TCKind::Except,
        TCKind::LongLong,
        TCKind::ULongLong,
        TCKind::LongDouble,
        TCKind::WChar,
        TCKind::WString,
        TCKind::Fixed,
        TCKind::Value,
        TCKind::ValueBox,
        TCKind::Native,
        TCKind::AbstractInterface,
        TCKind::LocalInterface,
        TCKind::Component,
        TCKind::Home,
        TCKind::Event,
    ];

    /// The number CDR writes for this kind.
    pub const fn to_u32(self) -> u32 {
        self as u32
    }

    /// The kind a CDR number denotes, if any (the indirection marker is not
    /// a kind).
    pub fn from_u32(n: u32) -> Option<TCKind> {
        TCKind::ALL.get(n as usize).copied()
    }

    /// Whether TypeCodes of this kind have no parameters at all (their
    /// encoding is the kind alone).
    pub fn is_basic(self) -> bool {
        matches!(
            self,
            TCKind::Null
                | TCKind::Void
                | TCKind::Short
                | TCKind::Long
                | TCKind::UShort
                | TCKind::ULong
                | TCKind::Float
                | TCKind::Double
                | TCKind::Boolean
                | TCKind::Char
                | TCKind::Octet
                | TCKind::Any
                | TCKind::TypeCode
                | TCKind::Principal
                | TCKind::LongLong
                | TCKind::ULongLong
                | TCKind::LongDouble
                | TCKind::WChar
        )
    }

    /// Whether a TypeCode of this kind can be the target of a recursive
    /// reference (it has a repository id and members or content).
    pub(crate) fn can_recurse(self) -> bool {
        matches!(
            self,
            TCKind::Struct | TCKind::Union | TCKind::Value | TCKind::Event | TCKind::ValueBox
        )
    }
}

/// `ValueModifier` `VM_NONE`: an ordinary concrete valuetype.
pub const VM_NONE: i16 = 0;
/// `ValueModifier` `VM_CUSTOM`: a custom-marshalled valuetype.
pub const VM_CUSTOM: i16 = 1;
/// `ValueModifier` `VM_ABSTRACT`: an abstract valuetype.
pub const VM_ABSTRACT: i16 = 2;
/// `ValueModifier` `VM_TRUNCATABLE`: a valuetype truncatable to its base.
pub const VM_TRUNCATABLE: i16 = 3;
/// `Visibility` of a private valuetype state member.
pub const PRIVATE_MEMBER: i16 = 0;
/// `Visibility` of a public valuetype state member.
pub const PUBLIC_MEMBER: i16 = 1;
