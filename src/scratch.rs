//! A directory of its own for one unit test, removed when the test ends,
//! whether it passed or panicked: the tests leave nothing in the system's
//! temporary directory.

use std::path::{Path, PathBuf};

/// An empty directory `dirtyviz-<name>-<pid>-<n>` under the temporary
/// directory, removed with everything in it when dropped; `n` counts the
/// process's scratch directories, so that tests running at once (threads
/// of one process) never share one, whatever their names.
pub(crate) struct Scratch(PathBuf);

/// Scratch directories made so far in the process.
static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Scratch {
    pub(crate) fn new(name: &str) -> Scratch {
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("dirtyviz-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_directory_goes_with_its_files_even_when_the_test_panics() {
        let kept = std::panic::catch_unwind(|| {
            let dir = Scratch::new("scratch-self");
            std::fs::write(dir.join("f"), "x").expect("write");
            assert!(dir.join("f").exists());
            let path = dir.to_path_buf();
            std::panic::panic_any(path)
        })
        .expect_err("panicked");
        let path = kept.downcast::<PathBuf>().expect("the path");
        assert!(!path.exists(), "{} is left", path.display());
    }
}
