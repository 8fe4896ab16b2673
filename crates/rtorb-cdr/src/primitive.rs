//! [`Primitive`]: the IDL primitive types that sequences and arrays of
//! move in bulk.

/// IDL primitive types with a fixed size and no invalid bit patterns, which
/// sequences and arrays move in bulk.
pub trait Primitive: bytemuck::Pod {
    /// Alignment on the wire (its size).
    const ALIGN: usize;
    /// The value with its bytes reversed.
    fn swap_bytes(self) -> Self;
}

macro_rules! primitive {
    ($($t:ty),*) => {$(
        impl Primitive for $t {
            const ALIGN: usize = std::mem::size_of::<$t>();
            #[inline]
            fn swap_bytes(self) -> Self {
                <$t>::from_ne_bytes({
                    let mut b = self.to_ne_bytes();
                    b.reverse();
                    b
                })
            }
        }
    )*};
}

primitive!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);
