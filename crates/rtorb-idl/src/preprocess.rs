//! preprocess.
