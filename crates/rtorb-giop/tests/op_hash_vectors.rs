//! The operation-name hash, pinned: the tables `rtorb-idl` generates and
//! the lookups of `rtorb::codegen::OpTable` both rest on these values.

use rtorb_giop::op_hash::{op_bucket, op_hash, op_slot};

/// `(seed, name, op_hash, op_bucket of 500, op_slot with displacement 0
/// of 2000, op_slot with displacement 12345 of 2000)`, worked out from the
/// definition of the functions (independently of this code).
type Vector = (u64, &'static [u8], u64, usize, usize, usize);

const VECTORS: &[Vector] = &[
    (0x0, b"", 0x85e0_a982_cfcd_cbf8, 261, 1739, 291),
    (0x0, b"a", 0xaaf7_ebdd_9e55_c492, 333, 987, 299),
    (0x1, b"cube_long", 0x6caf_8e92_61d7_d87e, 212, 1434, 518),
    (
        0xdead_beef,
        b"_get_altitude",
        0x1a6c_9198_34b5_bc26,
        51,
        545,
        1331,
    ),
    (u64::MAX, b"_is_a", 0xf08f_3488_4e02_5222, 469, 926, 1875),
    (
        0x2a,
        b"set_velocity_limit_for_every_axis_0123",
        0x6ec0_31d2_0d77_08e1,
        216,
        862,
        727,
    ),
    (0x7, b"12345678", 0x5101_7959_6b2a_a330, 158, 1885, 1601),
    (0x7, b"123456789", 0x9d59_e936_9ac1_efd2, 307, 1984, 1534),
    (
        0x0123_4567_89ab_cdef,
        b"\xff\x00\x80",
        0x8d51_0df8_28c6_3320,
        276,
        1572,
        178,
    ),
    (
        0x3,
        b"abcdefghijklmnop",
        0x4fef_6ea5_fdad_f7ad,
        156,
        1198,
        703,
    ),
    (
        0x3,
        b"abcdefghijklmnopq",
        0xd45e_39dc_8cad_4962,
        414,
        1417,
        877,
    ),
    (
        0x5,
        b"_get_abcdefghijklmnopqrstuvwxyz01",
        0xdde3_015f_6c87_d8f9,
        433,
        576,
        434,
    ),
    (
        0x5,
        b"_get_abcdefghijklmnopqrstuvwxyz012",
        0x560c_44e6_f755_6d9d,
        168,
        1083,
        683,
    ),
];

#[test]
fn hash_bucket_and_slot_match_the_pinned_vectors() {
    for &(seed, name, hash, bucket, slot0, slot12345) in VECTORS {
        let h = op_hash(seed, name);
        assert_eq!(h, hash, "op_hash({seed:#x}, {name:?})");
        assert_eq!(op_bucket(h, 500), bucket, "op_bucket of {name:?}");
        assert_eq!(op_slot(h, 0, 2000), slot0, "op_slot(0) of {name:?}");
        assert_eq!(
            op_slot(h, 12345, 2000),
            slot12345,
            "op_slot(12345) of {name:?}"
        );
    }
}

#[test]
fn reductions_stay_in_range_and_empty_ranges_give_zero() {
    for &(_, _, hash, _, _, _) in VECTORS {
        assert_eq!(op_bucket(hash, 0), 0);
        assert_eq!(op_slot(hash, 3, 0), 0);
        assert_eq!(op_bucket(hash, 1), 0);
        assert!(op_slot(hash, u32::MAX, usize::MAX) < usize::MAX);
    }
}
