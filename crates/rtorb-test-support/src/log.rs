//! Capturing what the ORB logs through `tracing`, for tests that check a
//! log line: [`capture`] runs a closure with a subscriber that keeps every
//! event of the calling thread.
//!
//! ```
//! use rtorb_test_support::log::capture;
//!
//! let (value, lines) = capture(|| {
//!     tracing::info!(from = 1, to = 2, "raised from 1 to 2");
//!     7
//! });
//! assert_eq!(value, 7);
//! assert_eq!(lines.len(), 1);
//! assert_eq!(lines[0].level, tracing::Level::INFO);
//! assert_eq!(lines[0].message, "raised from 1 to 2");
//! assert_eq!(lines[0].field("to"), Some("2"));
//! ```

use std::fmt::{Debug, Write};
use std::sync::{Arc, Mutex, PoisonError};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// One event logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Its level.
    pub level: Level,
    /// Its target (the module path that logged it).
    pub target: String,
    /// Its message.
    pub message: String,
    /// Its other fields, by name, as `Debug` writes their values.
    pub fields: Vec<(String, String)>,
}

impl Line {
    /// The value of field `name`, if the event has one.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Runs `f` with every event it logs on this thread captured, and returns
/// its value with those events, in order.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<Line>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let subscriber = Capture {
        lines: Arc::clone(&lines),
    };
    let value = tracing::subscriber::with_default(subscriber, f);
    let lines = std::mem::take(&mut *lines.lock().unwrap_or_else(PoisonError::into_inner));
    (value, lines)
}

/// A subscriber that keeps events and ignores spans.
struct Capture {
    lines: Arc<Mutex<Vec<Line>>>,
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let meta = event.metadata();
        let line = Line {
            level: *meta.level(),
            target: meta.target().to_owned(),
            message: fields.message,
            fields: fields.others,
        };
        self.lines
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// The fields of one event.
#[derive(Default)]
struct Fields {
    message: String,
    others: Vec<(String, String)>,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        let mut text = String::new();
        let _ = write!(text, "{value:?}");
        if field.name() == "message" {
            self.message = text;
        } else {
            self.others.push((field.name().to_owned(), text));
        }
    }
}
