//! Running a program of the workspace (the `rtorb` tool, a test binary
//! again) from a test, and failing the test clearly where it fails.

use std::process::{Command, Output};

/// Runs `command` to its end; what it wrote and how it ended. Panics,
/// naming the command, if it cannot be started.
pub fn output_of(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"))
}

/// Runs `command` to its end, which must succeed; its standard output.
/// Where it fails, the panic shows its standard error and output.
pub fn stdout_of(command: &mut Command) -> String {
    let out = output_of(command);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{command:?} failed ({}): {}\n{stdout}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_of_a_command_that_succeeds() {
        let text = stdout_of(Command::new("sh").args(["-c", "echo out; echo err >&2"]));
        assert_eq!(text, "out\n");
    }

    #[test]
    #[should_panic(expected = "err")]
    fn a_command_that_fails_fails_the_test_with_what_it_wrote() {
        stdout_of(Command::new("sh").args(["-c", "echo err >&2; exit 3"]));
    }
}
