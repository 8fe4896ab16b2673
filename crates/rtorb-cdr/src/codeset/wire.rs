//! The CDR encoding of code set ids, of the `TAG_CODE_SETS` component and
//! of the `CodeSets` service context.

use super::{CodeSetComponent, CodeSetComponentInfo, CodeSetContext, CodeSetId};
use crate::decoder::Decoder;
use crate::encoder::Encoder;
use crate::error::Result;
use crate::traits::{CdrDecode, CdrEncode};

impl CdrEncode for CodeSetId {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_u32(self.0);
        Ok(())
    }
}

impl CdrDecode for CodeSetId {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok(CodeSetId(dec.read_u32()?))
    }
}

impl CdrEncode for CodeSetComponent {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_u32(self.native_code_set.0);
        enc.write_len(self.conversion_code_sets.len())?;
        for cs in &self.conversion_code_sets {
            enc.write_u32(cs.0);
        }
        Ok(())
    }
}

impl CdrDecode for CodeSetComponent {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        let native_code_set = CodeSetId(dec.read_u32()?);
        let ids: Vec<u32> = dec.read_prim_seq()?;
        Ok(CodeSetComponent {
            native_code_set,
            conversion_code_sets: ids.into_iter().map(CodeSetId).collect(),
        })
    }
}

impl CdrEncode for CodeSetComponentInfo {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        self.for_char_data.encode(enc)?;
        self.for_wchar_data.encode(enc)
    }
}

impl CdrDecode for CodeSetComponentInfo {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok(CodeSetComponentInfo {
            for_char_data: CodeSetComponent::decode(dec)?,
            for_wchar_data: CodeSetComponent::decode(dec)?,
        })
    }
}

impl CdrEncode for CodeSetContext {
    fn encode(&self, enc: &mut Encoder) -> Result<()> {
        enc.write_u32(self.char_data.0);
        enc.write_u32(self.wchar_data.0);
        Ok(())
    }
}

impl CdrDecode for CodeSetContext {
    fn decode(dec: &mut Decoder) -> Result<Self> {
        Ok(CodeSetContext {
            char_data: CodeSetId(dec.read_u32()?),
            wchar_data: CodeSetId(dec.read_u32()?),
        })
    }
}
