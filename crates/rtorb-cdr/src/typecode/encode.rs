//! Writing TypeCodes in CDR; recursive placeholders become indirections.

use super::kind::TCKind;
use crate::dynamic::{Body, TypeCode};
use crate::encoder::Encoder;
use crate::error::{CdrError, Result};
use crate::traits::CdrEncode;

/// A TypeCode being written that placeholders inside it may point at.
struct Enclosing<'a> {
    kind: TCKind,
    id: &'a str,
    at: usize,
}

impl TypeCode {
    /// Writes the TypeCode; `stack` holds those it is inside.
    fn encode_in<'a>(&'a self, enc: &mut Encoder, stack: &mut Vec<Enclosing<'a>>) -> Result<()> {
        enc.align(4);
        let at = enc.len();
        if let Body::Recursive { kind, id } = self.body() {
            return write_indirection(enc, stack, *kind, id);
        }
        let kind = self.kind();
        enc.write_u32(kind.to_u32());
        match self.body() {
            Body::Basic(_) | Body::Recursive { .. } => Ok(()),
            Body::String { bound, .. } => {
                enc.write_u32(*bound);
                Ok(())
            }
            Body::Fixed { digits, scale } => {
                enc.write_u16(*digits);
                enc.write_i16(*scale);
                Ok(())
            }
            Body::Sequence { content, bound } => enc.write_encapsulation(|e| {
                content.encode_in(e, stack)?;
                e.write_u32(*bound);
                Ok(())
            }),
            Body::Array { content, length } => enc.write_encapsulation(|e| {
                content.encode_in(e, stack)?;
                e.write_u32(*length);
                Ok(())
            }),
            Body::Named {
                id, name, content, ..
            } => {
                let bind = kind == TCKind::ValueBox;
                enc.write_encapsulation(|e| {
                    e.write_string(id)?;
                    e.write_string(name)?;
                    if bind {
                        stack.push(Enclosing { kind, id, at });
                    }
                    let r = content.encode_in(e, stack);
                    if bind {
                        stack.pop();
                    }
                    r
                })
            }
            Body::Interface { id, name, .. } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)
            }),
            Body::Struct {
                id, name, members, ..
            } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                e.write_len(members.len())?;
                stack.push(Enclosing { kind, id, at });
                let r = members.iter().try_for_each(|(n, t)| {
                    e.write_string(n)?;
                    t.encode_in(e, stack)
                });
                stack.pop();
                r
            }),
            Body::Union { .. } => enc.write_encapsulation(|e| self.encode_union(e, stack, at)),
            Body::Enum { id, name, members } => enc.write_encapsulation(|e| {
                e.write_string(id)?;
                e.write_string(name)?;
                e.write_len(members.len())?;
                members.iter().try_for_each(|n| e.write_string(n))
            }),
            Body::Value { .. } => enc.write_encapsulation(|e| self.encode_value(e, stack, at)),
        }
    }

    /// The parameters of a union TypeCode whose kind is at `at`.
    fn encode_union<'a>(
        &'a self,
        e: &mut Encoder,
        stack: &mut Vec<Enclosing<'a>>,
        at: usize,
    ) -> Result<()> {
        let Body::Union {
            id,
            name,
            discriminator,
            default_index,
            members,
        } = self.body()
        else {
            return Ok(());
        };
        e.write_string(id)?;
        e.write_string(name)?;
        discriminator.encode_in(e, stack)?;
        e.write_i32(*default_index);
        e.write_len(members.len())?;
        stack.push(Enclosing {
            kind: TCKind::Union,
            id,
            at,
        });
        let r = members.iter().try_for_each(|m| {
            match &m.label {
                Some(l) => l.encode(discriminator, e)?,
                None => e.write_u8(0),
            }
            e.write_string(&m.name)?;
            m.type_code.encode_in(e, stack)
        });
        stack.pop();
        r
    }

    /// The parameters of a valuetype or eventtype TypeCode whose kind is at
    /// `at`.
    fn encode_value<'a>(
        &'a self,
        e: &mut Encoder,
        stack: &mut Vec<Enclosing<'a>>,
        at: usize,
    ) -> Result<()> {
        let Body::Value {
            kind,
            id,
            name,
            modifier,
            base,
            members,
        } = self.body()
        else {
            return Ok(());
        };
        e.write_string(id)?;
        e.write_string(name)?;
        e.write_i16(*modifier);
        stack.push(Enclosing {
            kind: *kind,
            id,
            at,
        });
        let r = (|| {
            match base {
                Some(b) => b.encode_in(e, stack)?,
                None => {
                    e.align(4);
                    e.write_u32(TCKind::Null.to_u32());
                }
            }
            e.write_len(members.len())?;
            members.iter().try_for_each(|m| {
                e.write_string(&m.name)?;
                m.type_code.encode_in(e, stack)?;
                e.write_i16(m.visibility);
                Ok(())
            })
        })();
        stack.pop();
        r
    }
}

/// Writes an indirection to the enclosing TypeCode that the placeholder of
/// `kind` and `id` stands for.
fn write_indirection(
    enc: &mut Encoder,
    stack: &[Enclosing<'_>],
    kind: TCKind,
    id: &str,
) -> Result<()> {
    let target = stack
        .iter()
        .rev()
        .find(|e| e.id == id)
        .filter(|e| e.kind == kind)
        .ok_or(CdrError::BadTypeCode("recursive TypeCode outside its type"))?;
    enc.write_u32(TCKind::INDIRECTION);
    let offset = target.at as i64 - enc.len() as i64;
    let offset = i32::try_from(offset).map_err(|_| CdrError::BadTypeCode("indirection too far"))?;
    enc.write_i32(offset);
    Ok(())
}

/// Writes the TypeCode in the standard CDR layout; recursive placeholders
/// become indirections to their enclosing TypeCode.
impl CdrEncode for TypeCode {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        let mut stack = Vec::new();
        self.encode_in(enc, &mut stack)
    }
}
