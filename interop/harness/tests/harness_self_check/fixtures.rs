//! The committed omniORB fixtures are well formed and labelled by what they
//! contain. (The live tests check that omniORB still produces them.)

use rtorb_interop::fixtures::{
    capture_sets, message_names, omniorb_fixtures_dir, read_capture_dir,
};
use rtorb_interop::peek::{self, MsgType};
use rtorb_interop::{Direction, expected_operations};

#[test]
fn every_capture_directory_is_consistent() {
    let root = omniorb_fixtures_dir();
    for set in capture_sets() {
        let dir = root.join(set.dir_name);
        let messages = read_capture_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert!(!messages.is_empty(), "{}", dir.display());

        let exchange: Vec<(Direction, Vec<u8>)> =
            messages.iter().map(|(_, d, m)| (*d, m.clone())).collect();
        let names: Vec<String> = message_names(&exchange)
            .into_iter()
            .map(|n| format!("{n}.hex"))
            .collect();
        let files: Vec<&String> = messages.iter().map(|(n, _, _)| n).collect();
        assert_eq!(files, names.iter().collect::<Vec<_>>(), "{}", dir.display());

        for (name, _, m) in &messages {
            let h = peek::header(m).unwrap_or_else(|| panic!("{name}: no GIOP header"));
            assert_eq!((h.major, h.minor), (1, set.version.minor()), "{name}");
            assert_eq!(h.body_len as usize + 12, m.len(), "{name}");
        }
        let ops: Vec<String> = messages
            .iter()
            .filter(|(_, d, _)| *d == Direction::ClientToServer)
            .filter_map(|(_, _, m)| peek::request(m).map(|r| r.operation))
            .collect();
        assert_eq!(ops, expected_operations(&set.options), "{}", dir.display());
        let has_fragments = messages
            .iter()
            .any(|(_, _, m)| peek::header(m).is_some_and(|h| h.msg_type == MsgType::Fragment));
        assert_eq!(
            has_fragments,
            set.options.big_octet_sequence.is_some(),
            "{}",
            dir.display()
        );
    }
}
