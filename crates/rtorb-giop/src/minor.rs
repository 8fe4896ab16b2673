//! Every minor code rtorb raises, in one table.
//!
//! A CORBA system exception carries a minor code, `VMCID | n`: the OMG's
//! own codes under [`OMG_VMCID`] (the CORBA specification assigns them per
//! exception, so OMG minor 1 of `TRANSIENT` and OMG minor 1 of
//! `OBJECT_NOT_EXIST` mean different things), and rtorb's under
//! [`RTORB_VMCID`] (`0x5254xxxx`, "RT"). Each code rtorb raises is a
//! constant here, named `KIND_WHAT`, and a row of [`REGISTRY`] saying
//! what it means; [`describe`] finds the row for an exception, which is
//! how a [`SystemException`](crate::SystemException) prints a sentence
//! and not only a number.
//!
//! rtorb's own codes are grouped by range (`0x008`, once a character
//! outside the code set, is now `DATA_CONVERSION_CHAR_NOT_IN_CODE_SET`):
//! `0x001`–`0x0ff` the CDR
//! decoder ([`rtorb_cdr::CdrError::minor`]), `0x101`–`0x1ff` GIOP framing
//! ([`crate::GiopError::minor`]), `0x201`–`0x2ff` invocation and
//! references, `0x301`–`0x30f` client connections, `0x310`–`0x31f` the
//! server, `0x320`–`0x32f` the POA, `0x330`–`0x33f` reading references
//! from files, `0x340`–`0x34f` real-time priorities and scheduling.

use rtorb_cdr::{OMG_VMCID, RTORB_VMCID};

use crate::exception::kind::SystemExceptionKind;

/// One minor code: the exception it goes with, its value, its constant's
/// name and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinorCode {
    /// The system exception the code is raised with.
    pub kind: SystemExceptionKind,
    /// The minor code, `VMCID | n`.
    pub code: u32,
    /// The name of its constant in this module.
    pub name: &'static str,
    /// What happened, as a sentence fragment ("no connection could be
    /// opened to the server").
    pub meaning: &'static str,
}

/// Declares each code as a documented constant and as a row of
/// [`REGISTRY`], from one line each.
macro_rules! minor_codes {
    ($( $(#[$doc:meta])* $name:ident = $kind:ident, $code:expr, $meaning:literal; )*) => {
        $(
            $(#[$doc])*
            #[doc = concat!("\n\n`", stringify!($kind), "`: ", $meaning, ".")]
            pub const $name: u32 = $code;
        )*
        /// Every minor code rtorb raises, in the order of this module.
        pub const REGISTRY: &[MinorCode] = &[
            $( MinorCode {
                kind: SystemExceptionKind::$kind,
                code: $name,
                name: stringify!($name),
                meaning: $meaning,
            }, )*
        ];
    };
}

minor_codes! {
    // ----- OMG codes (CORBA 3, Part 2; RT-CORBA; the CORBA minor code list) -----
    /// OMG minor 7, as `string_to_object` reports it.
    BAD_PARAM_BAD_SCHEME = BadParam, OMG_VMCID | 7,
        "the string is not a reference: its scheme (IOR:, corbaloc:, corbaname:, file://) is not known";
    /// OMG minor 8.
    BAD_PARAM_BAD_ADDRESS = BadParam, OMG_VMCID | 8,
        "the address of a corbaloc/corbaname URL is malformed";
    /// OMG minor 9.
    BAD_PARAM_BAD_SCHEME_SPECIFIC_PART = BadParam, OMG_VMCID | 9,
        "the reference is malformed after its scheme (bad hex digits, key or name)";
    /// OMG minor 10.
    BAD_PARAM_OTHER_URL_ERROR = BadParam, OMG_VMCID | 10,
        "the URL cannot be turned into a reference";
    /// OMG minor 14.
    BAD_PARAM_FOREIGN_ID = BadParam, OMG_VMCID | 14,
        "the object id was not assigned by this SYSTEM_ID POA";
    /// OMG minor 23.
    BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED = BadParam, OMG_VMCID | 23,
        "wchar or wstring data, but no wide code set was negotiated with the peer";
    /// OMG minor 2, "operation or attribute not known to target object".
    BAD_OPERATION_UNKNOWN_OPERATION = BadOperation, OMG_VMCID | 2,
        "the target object has no operation of that name";
    /// OMG minor 3, "would deadlock".
    BAD_INV_ORDER_WOULD_DEADLOCK = BadInvOrder, OMG_VMCID | 3,
        "the call would wait for the request that makes it to complete";
    /// OMG minor 6.
    BAD_INV_ORDER_SERVANT_MANAGER_SET = BadInvOrder, OMG_VMCID | 6,
        "a servant manager is already set on this POA";
    /// OMG minor 1, "unable to locate value factory".
    MARSHAL_NO_VALUE_FACTORY = Marshal, OMG_VMCID | 1,
        "no value factory is registered for a value type that cannot be truncated";
    /// OMG minor 5.
    MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0 = Marshal, OMG_VMCID | 5,
        "wchar or wstring data sent by a client over GIOP 1.0, which cannot carry it";
    /// OMG minor 6.
    MARSHAL_WCHAR_RETURNED_BY_SERVER_GIOP_1_0 = Marshal, OMG_VMCID | 6,
        "wchar or wstring data returned by a server over GIOP 1.0, which cannot carry it";
    /// OMG minor 1.
    INV_OBJREF_WCHAR_CODE_SET_NOT_SPECIFIED = InvObjref, OMG_VMCID | 1,
        "wchar data for a reference that names no wide code set";
    /// OMG minor 1: the policies of the reference and the effective
    /// overrides cannot be reconciled.
    INV_POLICY_CANNOT_RECONCILE = InvPolicy, OMG_VMCID | 1,
        "the effective policies allow none of the reference's profiles";
    /// OMG minor 1.
    CODESET_INCOMPATIBLE_NO_COMMON = CodesetIncompatible, OMG_VMCID | 1,
        "the client and server have no code set in common";
    /// OMG minor 1 (also for octets that are not text in the code set;
    /// [`rtorb_cdr::CdrError::BadCharacter`]).
    DATA_CONVERSION_CHAR_NOT_IN_CODE_SET = DataConversion, OMG_VMCID | 1,
        "a character does not map to the transmission code set, or octets are not text in it";
    /// OMG minor 1, as omniORB also answers for an unknown key.
    OBJECT_NOT_EXIST_NO_SERVANT = ObjectNotExist, OMG_VMCID | 1,
        "no object is registered under the object key";
    /// OMG minor 2.
    OBJECT_NOT_EXIST_NO_ADAPTER = ObjectNotExist, OMG_VMCID | 2,
        "no POA for the object key (destroyed, of an earlier ORB instance, or never made)";
    /// OMG minor 1.
    OBJ_ADAPTER_INACTIVE = ObjAdapter, OMG_VMCID | 1,
        "the POA's manager is inactive";
    /// OMG minor 3.
    OBJ_ADAPTER_NO_DEFAULT_SERVANT = ObjAdapter, OMG_VMCID | 3,
        "the POA uses a default servant and none is set";
    /// OMG minor 4.
    OBJ_ADAPTER_NO_SERVANT_MANAGER = ObjAdapter, OMG_VMCID | 4,
        "the POA uses a servant manager and none (or one of the wrong kind) is set";
    /// OMG minor 1.
    TRANSIENT_DISCARDED = Transient, OMG_VMCID | 1,
        "the POA manager discarded the request (discarding, or its hold queue is full)";
    /// OMG minor 2, "no usable profile in IOR".
    TRANSIENT_NO_USABLE_PROFILE = Transient, OMG_VMCID | 2,
        "no profile of the reference names a protocol this ORB can reach";
    /// OMG minor 1, "unlisted user exception received by client".
    UNKNOWN_UNLISTED_USER_EXCEPTION = Unknown, OMG_VMCID | 1,
        "the operation raised a user exception it does not declare";

    // ----- rtorb 0x001-0x0ff: CDR (the codes of rtorb_cdr::CdrError::minor) -----
    /// rtorb minor 0x001.
    MARSHAL_UNEXPECTED_END = Marshal, RTORB_VMCID | 1,
        "the message ended in the middle of a value";
    /// rtorb minor 0x002.
    MARSHAL_LENGTH_TOO_LARGE = Marshal, RTORB_VMCID | 2,
        "a length is larger than the octets left in the message";
    /// rtorb minor 0x003.
    MARSHAL_BOUND_EXCEEDED = Marshal, RTORB_VMCID | 3,
        "a bounded string or sequence is longer than its bound";
    /// rtorb minor 0x004.
    MARSHAL_INVALID_BOOLEAN = Marshal, RTORB_VMCID | 4,
        "a boolean octet is neither 0 nor 1";
    /// rtorb minor 0x005.
    MARSHAL_INVALID_ENUM = Marshal, RTORB_VMCID | 5,
        "an enum value is out of range";
    /// rtorb minor 0x006.
    MARSHAL_INVALID_DISCRIMINATOR = Marshal, RTORB_VMCID | 6,
        "a union discriminator selects no member";
    /// rtorb minor 0x007.
    MARSHAL_MALFORMED_STRING = Marshal, RTORB_VMCID | 7,
        "a string is malformed (no terminating NUL, or a NUL inside)";
    /// rtorb minor 0x009.
    MARSHAL_UNSUPPORTED_CODE_SET = Marshal, RTORB_VMCID | 9,
        "a code set this ORB cannot convert";
    /// rtorb minor 0x00a.
    MARSHAL_MALFORMED_FIXED = Marshal, RTORB_VMCID | 10,
        "a fixed-point value is malformed";
    /// rtorb minor 0x00b.
    MARSHAL_INVALID_BYTE_ORDER = Marshal, RTORB_VMCID | 11,
        "an encapsulation's byte-order octet is neither 0 nor 1";
    /// rtorb minor 0x00c.
    MARSHAL_NESTING_TOO_DEEP = Marshal, RTORB_VMCID | 12,
        "values are nested deeper than the decoder allows";
    /// rtorb minor 0x00d.
    MARSHAL_BAD_TYPE_CODE = Marshal, RTORB_VMCID | 13,
        "a TypeCode is malformed";
    /// rtorb minor 0x00e.
    MARSHAL_BAD_INDIRECTION = Marshal, RTORB_VMCID | 14,
        "an indirection points outside what it may refer to";
    /// rtorb minor 0x00f.
    MARSHAL_TYPE_MISMATCH = Marshal, RTORB_VMCID | 15,
        "a value is not of the type it was read as";
    /// rtorb minor 0x010.
    MARSHAL_UNSUPPORTED = Marshal, RTORB_VMCID | 16,
        "the encoding uses a feature this ORB does not support";
    /// rtorb minor 0x011.
    MARSHAL_BAD_VALUE = Marshal, RTORB_VMCID | 17,
        "a value type's encoding is malformed";

    // ----- rtorb 0x101-0x1ff: GIOP framing (crate::GiopError::minor) -----
    /// rtorb minor 0x101.
    MARSHAL_BAD_MAGIC = Marshal, RTORB_VMCID | 0x101,
        "the message does not start with GIOP (or the GIOPlite header)";
    /// rtorb minor 0x102.
    MARSHAL_UNSUPPORTED_VERSION = Marshal, RTORB_VMCID | 0x102,
        "a GIOP version this ORB does not speak";
    /// rtorb minor 0x103.
    MARSHAL_UNKNOWN_MESSAGE_TYPE = Marshal, RTORB_VMCID | 0x103,
        "an unknown GIOP message type";
    /// rtorb minor 0x104.
    MARSHAL_MESSAGE_TYPE_NOT_IN_VERSION = Marshal, RTORB_VMCID | 0x104,
        "a message type its GIOP version does not have";
    /// rtorb minor 0x105.
    MARSHAL_INVALID_FLAGS = Marshal, RTORB_VMCID | 0x105,
        "the GIOP header's flags are not valid for its version";
    /// rtorb minor 0x106.
    IMP_LIMIT_MESSAGE_TOO_LARGE = ImpLimit, RTORB_VMCID | 0x106,
        "the message is larger than the configured maximum";
    /// rtorb minor 0x107.
    MARSHAL_TRUNCATED = Marshal, RTORB_VMCID | 0x107,
        "the message is shorter than its header says";
    /// rtorb minor 0x108.
    MARSHAL_SIZE_MISMATCH = Marshal, RTORB_VMCID | 0x108,
        "the message's body does not match the size in its header";
    /// rtorb minor 0x109.
    MARSHAL_INVALID_REPLY_STATUS = Marshal, RTORB_VMCID | 0x109,
        "a reply status that does not exist";
    /// rtorb minor 0x10a.
    MARSHAL_INVALID_LOCATE_STATUS = Marshal, RTORB_VMCID | 0x10a,
        "a locate status that does not exist";
    /// rtorb minor 0x10b.
    MARSHAL_NOT_REPRESENTABLE = Marshal, RTORB_VMCID | 0x10b,
        "the message cannot be written in the GIOP version of the connection";
    /// rtorb minor 0x10c.
    IMP_LIMIT_SIZE_OVERFLOW = ImpLimit, RTORB_VMCID | 0x10c,
        "the message would be larger than GIOP's 32-bit size";
    /// rtorb minor 0x10d.
    MARSHAL_CANNOT_FRAGMENT = Marshal, RTORB_VMCID | 0x10d,
        "the message cannot be fragmented in its GIOP version";
    /// rtorb minor 0x10e.
    MARSHAL_NOT_FRAGMENTABLE = Marshal, RTORB_VMCID | 0x10e,
        "a message of this type cannot be fragmented";
    /// rtorb minor 0x10f.
    MARSHAL_FRAGMENT_SIZE_TOO_SMALL = Marshal, RTORB_VMCID | 0x10f,
        "the fragment size is too small for a GIOP header";
    /// rtorb minor 0x110.
    MARSHAL_UNEXPECTED_FRAGMENT = Marshal, RTORB_VMCID | 0x110,
        "a Fragment message continues no message";
    /// rtorb minor 0x111.
    MARSHAL_FRAGMENT_INTERLEAVED = Marshal, RTORB_VMCID | 0x111,
        "GIOP 1.1 fragments of two messages interleaved";
    /// rtorb minor 0x112.
    MARSHAL_FRAGMENT_MISMATCH = Marshal, RTORB_VMCID | 0x112,
        "a fragment's byte order or version differs from its message's";
    /// rtorb minor 0x113.
    IMP_LIMIT_TOO_MANY_PARTIAL_MESSAGES = ImpLimit, RTORB_VMCID | 0x113,
        "more fragmented messages in progress at once than allowed";
    /// rtorb minor 0x114.
    IMP_LIMIT_TOO_MANY_FRAGMENTS = ImpLimit, RTORB_VMCID | 0x114,
        "a message in more fragments than allowed";
    /// rtorb minor 0x115.
    IMP_LIMIT_REASSEMBLY_LIMIT = ImpLimit, RTORB_VMCID | 0x115,
        "a fragmented message grew larger than allowed";

    // ----- rtorb 0x201-0x2ff: invocation and references -----
    /// rtorb minor 0x201.
    INV_OBJREF_NO_OBJECT_KEY = InvObjref, RTORB_VMCID | 0x201,
        "the reference has no profile that carries an object key";
    /// rtorb minor 0x202.
    TRANSIENT_TOO_MANY_FORWARDS = Transient, RTORB_VMCID | 0x202,
        "the request was forwarded more times than the ORB follows";
    /// rtorb minor 0x203.
    MARSHAL_UNEXPECTED_REPLY = Marshal, RTORB_VMCID | 0x203,
        "the reply does not answer the request sent (another message type or request id)";
    /// rtorb minor 0x204.
    NO_IMPLEMENT_OBJECT_OPERATION = NoImplement, RTORB_VMCID | 0x204,
        "a standard object operation this ORB does not provide";
    /// rtorb minor 0x205.
    MARSHAL_TARGET_NOT_A_KEY = Marshal, RTORB_VMCID | 0x205,
        "a GIOP 1.2 request addresses its target by profile or reference where only object keys are served";

    // ----- rtorb 0x301-0x30f: client connections -----
    /// rtorb minor 0x301.
    TRANSIENT_CONNECT_FAILED = Transient, RTORB_VMCID | 0x301,
        "no connection could be opened to the server";
    /// rtorb minor 0x302.
    TRANSIENT_CONNECTION_CLOSED = Transient, RTORB_VMCID | 0x302,
        "the server closed the connection before starting the request, twice";
    /// rtorb minor 0x303.
    COMM_FAILURE_CONNECTION_LOST = CommFailure, RTORB_VMCID | 0x303,
        "the connection was lost while sending the request or waiting for its reply";
    /// rtorb minor 0x304.
    COMM_FAILURE_PROTOCOL_ERROR = CommFailure, RTORB_VMCID | 0x304,
        "the server answered with a MessageError or sent what a client cannot accept";
    /// rtorb minor 0x305.
    TIMEOUT_ROUND_TRIP = Timeout, RTORB_VMCID | 0x305,
        "the reply did not arrive within the round-trip timeout";

    // ----- rtorb 0x310-0x31f: the server -----
    /// rtorb minor 0x310.
    UNKNOWN_SERVANT_PANICKED = Unknown, RTORB_VMCID | 0x310,
        "the servant (or its servant manager) panicked";
    /// rtorb minor 0x318.
    NO_MEMORY_BUDGET = NoMemory, RTORB_VMCID | 0x318,
        "the message announced more octets than remain of the server's memory budget";

    // ----- rtorb 0x320-0x32f: the POA -----
    /// rtorb minor 0x320.
    TRANSIENT_SHUTTING_DOWN = Transient, RTORB_VMCID | 0x320,
        "the request was held by a POA manager when the ORB shut down";
    /// rtorb minor 0x321.
    OBJECT_NOT_EXIST_NOT_ACTIVE = ObjectNotExist, RTORB_VMCID | 0x321,
        "the POA has no active object under the key's object id";
    /// rtorb minor 0x322.
    TRANSIENT_NOT_READY = Transient, RTORB_VMCID | 0x322,
        "a servant's call through a reference before its ORB was set up, or after it was dropped";
    /// rtorb minor 0x323.
    BAD_PARAM_STALE_ID = BadParam, RTORB_VMCID | 0x323,
        "the SYSTEM_ID object id's slot went to another object after it was deactivated";

    // ----- rtorb 0x330-0x33f: references read from files -----
    /// rtorb minor 0x330.
    BAD_PARAM_FILE_UNREADABLE = BadParam, RTORB_VMCID | 0x330,
        "the file:// reference's file cannot be read, is too large, or is not UTF-8 text";
    /// rtorb minor 0x331.
    BAD_PARAM_FILE_NO_REFERENCE = BadParam, RTORB_VMCID | 0x331,
        "the file:// reference's file holds no IOR:, corbaloc: or corbaname: reference";

    // ----- Real-time CORBA: priorities and scheduling -----
    /// OMG minor 2: Real-time CORBA's answer when a priority mapping's
    /// `to_native` (or `to_CORBA`) fails.
    DATA_CONVERSION_PRIORITY_MAPPING = DataConversion, OMG_VMCID | 2,
        "the priority mapping has no native priority for the CORBA priority (or no CORBA priority for the native one)";
    /// rtorb minor 0x340: Real-time CORBA names `BAD_PARAM` for a priority
    /// outside `0..=32767`.
    BAD_PARAM_PRIORITY_OUT_OF_RANGE = BadParam, RTORB_VMCID | 0x340,
        "a CORBA priority outside 0..=32767";
    /// rtorb minor 0x342.
    MARSHAL_PRIORITY_CONTEXT = Marshal, RTORB_VMCID | 0x342,
        "the RTCorbaPriority service context is not an encapsulated short";
    /// rtorb minor 0x343.
    INV_POLICY_NO_PRIORITY_BAND = InvPolicy, RTORB_VMCID | 0x343,
        "the calling thread's CORBA priority is in none of the reference's priority bands";
    /// rtorb minor 0x341.
    NO_PERMISSION_REALTIME_SCHEDULING = NoPermission, RTORB_VMCID | 0x341,
        "the process may not use the configured scheduling policy or priority (EPERM), and is configured to fail";
    /// rtorb minor 0x344: an object bound to a thread pool declares a
    /// priority none of the pool's lanes has.
    BAD_PARAM_NO_SUCH_LANE = BadParam, RTORB_VMCID | 0x344,
        "no lane of the thread pool has the object's declared priority";
    /// rtorb minor 0x345: after a watchdog fired, the process runs under
    /// SCHED_OTHER for good.
    NO_PERMISSION_REALTIME_REVOKED = NoPermission, RTORB_VMCID | 0x345,
        "a watchdog put the process under SCHED_OTHER after real-time work overran; real-time priorities are refused from then on, and the ORB is configured to fail";
    /// rtorb minor 0x34a: a lane's threads could not be restricted to the
    /// CPUs configured for it.
    BAD_PARAM_LANE_CPUS = BadParam, RTORB_VMCID | 0x34a,
        "a lane's threads cannot run on the CPUs configured for it (none given, or not available to the process)";
    /// rtorb minor 0x34b: Real-time CORBA names `TRANSIENT` for a request
    /// a thread pool can neither run nor buffer.
    TRANSIENT_LANE_FULL = Transient, RTORB_VMCID | 0x34b,
        "every thread of the thread pool lane is busy and its request buffer is full (or buffering is not allowed)";
}

/// The row of [`REGISTRY`] for a system exception's kind and minor code.
pub fn describe(kind: SystemExceptionKind, code: u32) -> Option<&'static MinorCode> {
    REGISTRY.iter().find(|m| m.kind == kind && m.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_and_code_name_one_row() {
        for (i, a) in REGISTRY.iter().enumerate() {
            for b in &REGISTRY[i + 1..] {
                assert!(
                    !(a.kind == b.kind && a.code == b.code),
                    "{} and {} are the same code of the same exception",
                    a.name,
                    b.name
                );
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn cdr_errors_raise_registered_codes() {
        use rtorb_cdr::CdrError;
        let errors = [
            (
                CdrError::UnexpectedEnd {
                    needed: 4,
                    remaining: 0,
                },
                MARSHAL_UNEXPECTED_END,
            ),
            (
                CdrError::LengthTooLarge {
                    length: 9,
                    remaining: 1,
                },
                MARSHAL_LENGTH_TOO_LARGE,
            ),
            (CdrError::InvalidBoolean(2), MARSHAL_INVALID_BOOLEAN),
            (
                CdrError::InvalidEnum { value: 9, count: 3 },
                MARSHAL_INVALID_ENUM,
            ),
            (
                CdrError::NoWcharCodeSet,
                BAD_PARAM_WCHAR_CODE_SET_NOT_NEGOTIATED,
            ),
            (
                CdrError::WcharInGiop10,
                MARSHAL_WCHAR_SENT_BY_CLIENT_GIOP_1_0,
            ),
        ];
        for (e, code) in errors {
            assert_eq!(e.minor(), code, "{e}");
            let ex = crate::SystemException::from(e);
            assert!(ex.minor_code().is_some(), "{ex}");
        }
    }

    #[test]
    fn display_says_what_happened() {
        use crate::{CompletionStatus, SystemException};
        let e = SystemException::new(
            SystemExceptionKind::Transient,
            TRANSIENT_CONNECT_FAILED,
            CompletionStatus::No,
        );
        assert_eq!(
            e.to_string(),
            "CORBA::TRANSIENT: no connection could be opened to the server \
             (minor 0x52540301 TRANSIENT_CONNECT_FAILED, COMPLETED_NO)"
        );
        let e = e.with_detail("connecting to 127.0.0.1:9: Connection refused (os error 111)");
        assert_eq!(
            e.to_string(),
            "CORBA::TRANSIENT: connecting to 127.0.0.1:9: Connection refused (os error 111) \
             (minor 0x52540301 TRANSIENT_CONNECT_FAILED, COMPLETED_NO)"
        );
        let omg = SystemException::new(
            SystemExceptionKind::ObjectNotExist,
            OBJECT_NOT_EXIST_NO_SERVANT,
            CompletionStatus::No,
        );
        assert_eq!(
            omg.to_string(),
            "CORBA::OBJECT_NOT_EXIST: no object is registered under the object key \
             (minor 0x4f4d0001 OBJECT_NOT_EXIST_NO_SERVANT, OMG minor 1, COMPLETED_NO)"
        );
        let unknown = SystemException::new(
            SystemExceptionKind::NoMemory,
            0x1234_5678,
            CompletionStatus::Maybe,
        );
        assert_eq!(
            unknown.to_string(),
            "CORBA::NO_MEMORY (minor 0x12345678, COMPLETED_MAYBE)"
        );
    }

    #[test]
    fn the_detail_is_not_part_of_equality() {
        use crate::{CompletionStatus, SystemException};
        let a = SystemException::new(
            SystemExceptionKind::Transient,
            TRANSIENT_CONNECT_FAILED,
            CompletionStatus::No,
        );
        assert_eq!(a.clone().with_detail("somewhere"), a);
    }

    #[test]
    fn names_start_with_their_exception() {
        for m in REGISTRY {
            let prefix = m.kind.name().replace(['_'], "");
            let name = m.name.replace('_', "");
            assert!(
                name.starts_with(&prefix),
                "{} is raised as {}",
                m.name,
                m.kind.name()
            );
        }
    }
}
