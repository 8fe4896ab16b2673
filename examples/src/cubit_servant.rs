//! The Cubit servant of the examples: an implementation of the servant
//! trait generated from `cubit.idl`.

use std::sync::mpsc::Sender;

use rtorb::exception::SystemException;

use crate::cubit_idl::{CubitServant, cubit};

/// Cubes its arguments (wrapping as the IDL types wrap); `shutdown`
/// tells whoever waits on the channel it was made with.
#[derive(Debug, Default)]
pub struct Cuber {
    shutdown: Option<Sender<()>>,
}

impl Cuber {
    /// A servant whose `shutdown` sends on `shutdown`.
    pub fn new(shutdown: Sender<()>) -> Cuber {
        Cuber {
            shutdown: Some(shutdown),
        }
    }
}

impl CubitServant for Cuber {
    fn cube_void(&self) -> Result<(), SystemException> {
        Ok(())
    }
    fn cube_octet(&self, o: u8) -> Result<u8, SystemException> {
        Ok(o.wrapping_mul(o).wrapping_mul(o))
    }
    fn cube_short(&self, s: i16) -> Result<i16, SystemException> {
        Ok(s.wrapping_mul(s).wrapping_mul(s))
    }
    fn cube_long(&self, l: i32) -> Result<i32, SystemException> {
        Ok(l.wrapping_mul(l).wrapping_mul(l))
    }
    fn cube_struct(&self, m: cubit::Many) -> Result<cubit::Many, SystemException> {
        Ok(cubit::Many {
            o: self.cube_octet(m.o)?,
            l: self.cube_long(m.l)?,
            s: self.cube_short(m.s)?,
        })
    }
    fn cube_long_sequence(&self, s: cubit::LongSeq) -> Result<cubit::LongSeq, SystemException> {
        Ok(s.iter()
            .map(|l| l.wrapping_mul(*l).wrapping_mul(*l))
            .collect())
    }
    fn cube_octet_sequence(&self, s: cubit::OctetSeq) -> Result<cubit::OctetSeq, SystemException> {
        Ok(s.iter()
            .map(|o| o.wrapping_mul(*o).wrapping_mul(*o))
            .collect::<Vec<u8>>()
            .into())
    }
    fn shutdown(&self) -> Result<(), SystemException> {
        if let Some(sender) = &self.shutdown {
            // Nobody may be waiting any more; that is no error of the call.
            let _ = sender.send(());
        }
        Ok(())
    }
}
