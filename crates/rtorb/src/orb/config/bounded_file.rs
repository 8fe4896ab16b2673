//! Reading a text file of bounded size: a configuration file, or the
//! reference file of a `file://` URL.

use std::io::Read;
use std::path::Path;

use super::option_error::ReadFileError;
use super::orb_config::MAX_CONFIG_FILE_SIZE;

/// Reads a UTF-8 text file of at most [`MAX_CONFIG_FILE_SIZE`] octets.
pub(crate) fn read_bounded(path: &Path) -> Result<String, ReadFileError> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_FILE_SIZE + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONFIG_FILE_SIZE {
        return Err(ReadFileError::TooLarge {
            limit: MAX_CONFIG_FILE_SIZE,
        });
    }
    String::from_utf8(bytes).map_err(|_| ReadFileError::NotUtf8)
}
