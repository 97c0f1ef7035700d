//! Writing the files a user asks for (`--trace`, `--csv`,
//! `--summary-json`, `--record`, and any later output) without ever
//! destroying what was there.
//!
//! - [`AtomicFile`] writes into a temporary file in the target's own
//!   directory and renames it over the target only once the output is
//!   complete ([`AtomicFile::commit`]). A run that fails or is interrupted
//!   leaves the old file as it was; the temporary file is removed (a
//!   process killed outright leaves it behind, named
//!   `.NAME.dirtyviz-PID-N.tmp`). A target that exists and is not a
//!   regular file (`/dev/null`, a FIFO, a terminal) is written directly;
//!   Ctrl-C stops the wait for a FIFO's reader.
//!   A symbolic link is followed: the file it points to is replaced, the
//!   link stays. A regular file behind one of this process's descriptors
//!   (`/dev/stdout` with `>> log`, `/dev/fd/3`) is written through the
//!   descriptor, as the shell opened it, once the output is complete. A rename that fails at the end
//!   leaves the finished output in its temporary file, and says so.
//! - An existing file this user may not write (`chmod 444`, someone
//!   else's) is refused, as a shell's `>` refuses it, though renaming
//!   over it needs only its directory: `PATH: cannot write: Permission
//!   denied`. Root may replace it, as it may write it.
//! - [`check_distinct`] refuses an output that is the same file as an
//!   input or as another output: same device and inode (a symbolic or
//!   hard link counts), or, for files not there yet, the same canonical
//!   path.
//!
//! The directory rule: dirtyviz creates no directory for an output. The
//! directory of every output must exist (and be writable); if not, the
//! run stops before it starts with one line naming it. Only dirtyviz's own
//! data directory (`$XDG_DATA_HOME/dirtyviz`) is created when missing.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// An output file that appears only when complete.
pub struct AtomicFile {
    /// The path as the user gave it (for messages).
    shown: PathBuf,
    /// The file that is replaced: `shown` with symbolic links followed.
    target: PathBuf,
    /// The temporary file; `None` when writing straight into a device.
    temp: Option<PathBuf>,
    /// A file behind one of this process's descriptors
    /// ([`open_descriptor`]): the output is kept in a file of no name
    /// and copied into it once complete.
    through: Option<File>,
    out: BufWriter<Stoppable>,
    /// Sync to disk before the rename.
    durable: bool,
    /// Bytes put since the temporary file was last checked to be there.
    unchecked: u64,
}

/// A file whose writes a signal asking to stop ends
/// ([`crate::interrupt::catch`]), where a write may wait: into a FIFO or
/// pipe whose reader stopped reading, a write blocked until a second
/// Ctrl-C ended dirtyviz outright (the signal may come to any thread,
/// and `write_all` retries a write it did interrupt). Such a target is
/// written when poll(2) finds room, a pipe's atomic `PIPE_BUF` bytes at a
/// time, and the wait for room looks for the signal every 50 ms.
struct Stoppable {
    file: File,
    /// A FIFO or a socket: a write may wait for the reader.
    waits: bool,
    /// The signal that asked to stop, if one has, as the command catches
    /// signals (`live` its own way).
    stopped: Stopped,
}

/// Tells the signal that asked a command to stop, if one has.
pub type Stopped = std::sync::Arc<dyn Fn() -> Option<i32> + Send + Sync>;

impl Write for Stoppable {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.waits {
            return self.file.write(buf);
        }
        loop {
            if (self.stopped)().is_some() {
                return Err(std::io::Error::other("stopped by a signal"));
            }
            let mut fd = libc::pollfd { fd: self.file.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
            // SAFETY: one valid pollfd, its descriptor open as long as `file`.
            let ready = unsafe { libc::poll(&mut fd, 1, 50) };
            // Room, or an error or hang-up that the write then reports.
            if ready > 0 || (ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted) {
                break;
            }
        }
        self.file.write(&buf[..buf.len().min(libc::PIPE_BUF)])
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// How much an output writes between two checks that its temporary file
/// is still there \[bytes\].
const CHECK_EVERY_BYTES: u64 = 16 << 20;

/// Numbers temporary files apart within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl AtomicFile {
    /// Starts writing `path`: creates the temporary file beside it. Fails
    /// (naming `path`) when its directory is missing or not writable, or
    /// when `path` is a directory.
    pub fn create(path: &Path) -> Result<AtomicFile> {
        AtomicFile::create_until(path, std::sync::Arc::new(crate::interrupt::signal))
    }

    /// [`AtomicFile::create`], where `stopped` tells the signal that
    /// stops the wait for a FIFO's reader ([`crate::interrupt::open_until`]).
    pub fn create_until(path: &Path, stopped: Stopped) -> Result<AtomicFile> {
        if let Some(dest) = open_descriptor(path)? {
            let spool = nameless_file(&parent_of(&resolve(path)?))
                .map_err(|e| Error::io(path, "cannot keep the output until it is complete")(e))?;
            let mut out = AtomicFile::new(path, path.to_path_buf(), None, spool, stopped);
            out.through = Some(dest);
            return Ok(out);
        }
        // A pipe or terminal reached through the kernel's own links
        // (/dev/stdout -> /proc/self/fd/1 -> pipe:[...]), which no path
        // names: written directly, as any device.
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
            && !meta.is_dir()
            && std::fs::metadata(resolve(path)?).is_err()
        {
            let file = crate::interrupt::open_until(
                path,
                OpenOptions::new().write(true),
                true,
                Error::io(path, "cannot write"),
                &*stopped,
            )?;
            return Ok(AtomicFile::new(path, path.to_path_buf(), None, file, stopped));
        }
        let target = resolve(path)?;
        let existing = std::fs::metadata(&target).ok();
        if let Some(meta) = existing.as_ref().filter(|m| !m.is_file()) {
            if meta.is_dir() {
                return Err(Error::invalid(format!("{}: is a directory, not a file to write", path.display())));
            }
            // A device, FIFO or terminal: nothing to clobber.
            let file = crate::interrupt::open_until(
                &target,
                OpenOptions::new().write(true),
                true,
                Error::io(path, "cannot write"),
                &*stopped,
            )?;
            return Ok(AtomicFile::new(path, target, None, file, stopped));
        }
        if existing.is_some() {
            may_write(path, &target)?;
        }
        let dir = parent_of(&target);
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // The temporary name is longer than the target's: a name near the
        // system's 255 bytes is cut (at a character) to leave room.
        let name: String = name.char_indices().take_while(|(i, c)| i + c.len_utf8() <= 200).map(|(_, c)| c).collect();
        // A name a process of the same number left behind (killed
        // outright) is passed over for the next.
        let (temp, file) = loop {
            let temp = dir.join(format!(
                ".{name}.dirtyviz-{}-{}.tmp",
                std::process::id(),
                TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (temp, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => continue,
                Err(e) => return Err(cannot_create_in(path, &dir, NO_DIRECTORY, true, e)),
            }
        };
        // The new file keeps the owner and permissions of the one it
        // replaces, as a shell's `>` keeps them (root replacing a user's
        // file left it root's; others cannot give a file away, and keep
        // what they may).
        if let Some(meta) = existing {
            let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
            let _ = file.set_permissions(meta.permissions());
        }
        Ok(AtomicFile::new(path, target, Some(temp), file, stopped))
    }

    fn new(shown: &Path, target: PathBuf, temp: Option<PathBuf>, file: File, stopped: Stopped) -> AtomicFile {
        // A FIFO or socket: /dev/null or a terminal is written as a file.
        let waits =
            temp.is_none() && file.metadata().is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket());
        AtomicFile {
            shown: shown.to_path_buf(),
            target,
            temp,
            through: None,
            out: BufWriter::with_capacity(1 << 16, Stoppable { waits, file, stopped }),
            durable: false,
            unchecked: 0,
        }
    }

    /// Syncs the data to disk before the rename, so that after a power
    /// cut either the old or the new file is there, whole.
    pub fn durable(mut self) -> AtomicFile {
        self.durable = true;
        self
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The temporary file written until [`AtomicFile::commit`], if any.
    pub fn temp_path(&self) -> Option<&Path> {
        self.temp.as_deref()
    }

    /// Appends `bytes`. Every 16 MiB, checks that the
    /// temporary file is still there, so that a run whose output directory
    /// was removed stops then, not after writing the rest for nothing.
    pub fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(|e| self.write_error(e))?;
        self.unchecked += bytes.len() as u64;
        if self.unchecked >= CHECK_EVERY_BYTES {
            self.unchecked = 0;
            self.check_still_there()?;
        }
        Ok(())
    }

    /// Fails if the temporary file lost its name: its directory (or the
    /// file itself) was removed while it was being written.
    fn check_still_there(&self) -> Result<()> {
        let Some(temp) = &self.temp else { return Ok(()) };
        let removed = self.out.get_ref().file.metadata().is_ok_and(|m| m.nlink() == 0);
        if removed {
            let dir = parent_of(&self.target);
            return Err(Error::invalid(format!(
                "{}: the directory {} or the temporary file {} was removed while the output was written",
                self.shown.display(),
                dir.display(),
                temp.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
            )));
        }
        Ok(())
    }

    /// Writes what is buffered to the file (not yet in place).
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(|e| self.write_error(e))
    }

    /// Why a write failed: a signal that asked to stop, the reader of a
    /// pipe, FIFO or socket gone ([`Error::ReaderGone`]: the command
    /// stops quietly), or `e`. A file that is not one failing so (a
    /// network file system passing EPIPE on) is a failed write.
    pub(crate) fn write_error(&self, e: std::io::Error) -> Error {
        let stoppable = self.out.get_ref();
        match (stoppable.stopped)() {
            Some(signal) => Error::Interrupted(signal),
            None if stoppable.waits && e.kind() == std::io::ErrorKind::BrokenPipe => Error::ReaderGone,
            None => Error::io(&self.shown, "cannot write")(e),
        }
    }

    /// Fails where [`AtomicFile::commit`] is sure to: the temporary file
    /// is gone, or its directory no longer takes the rename (made
    /// read-only, as `access(2)` judges for this user).
    fn ready(&self) -> Result<()> {
        use std::os::unix::ffi::OsStrExt;
        self.check_still_there()?;
        if self.temp.is_none() {
            return Ok(());
        }
        // A directory made where the file was takes no rename over it.
        if std::fs::symlink_metadata(&self.target).is_ok_and(|m| m.is_dir()) {
            return Err(Error::invalid(format!(
                "{}: is now a directory, not a file to replace; no output was replaced",
                self.shown.display()
            )));
        }
        let dir = parent_of(&self.target);
        let Ok(c_dir) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return Ok(()) };
        // SAFETY: a NUL-terminated path that lives across the call.
        if unsafe { libc::faccessat(libc::AT_FDCWD, c_dir.as_ptr(), libc::W_OK, libc::AT_EACCESS) } != 0 {
            let e = std::io::Error::last_os_error();
            return Err(Error::invalid(format!(
                "{}: cannot replace: {} (the directory {}); no output was replaced",
                self.shown.display(),
                crate::error::io_reason(&e),
                dir.display()
            )));
        }
        Ok(())
    }

    /// Completes the output: flushes it and renames it over the target
    /// (or copies it into the descriptor it goes through).
    pub fn commit(mut self) -> Result<()> {
        self.flush()?;
        if let Some(mut dest) = self.through.take() {
            use std::io::Seek;
            // Where the output starts: the end for a file opened to
            // append (`>>`), else the descriptor's offset.
            // SAFETY: F_GETFL reads the descriptor's flags, nothing else.
            let append = unsafe { libc::fcntl(dest.as_raw_fd(), libc::F_GETFL) } & libc::O_APPEND != 0;
            let start = if append { dest.metadata().map(|m| m.len()) } else { dest.stream_position() };
            let start = start.map_err(Error::io(&self.shown, "cannot write"))?;
            let spool = &mut self.out.get_mut().file;
            spool.rewind().map_err(Error::io(&self.shown, "cannot read the output back"))?;
            if let Err(e) = std::io::copy(spool, &mut dest) {
                // A copy cut short (a full disk) is taken back: the file
                // ends where it did.
                let _ = dest.set_len(start);
                return Err(self.write_error(e));
            }
            if self.durable {
                dest.sync_all().map_err(Error::io(&self.shown, "cannot write"))?;
            }
            return Ok(());
        }
        if self.durable {
            self.out.get_ref().file.sync_all().map_err(Error::io(&self.shown, "cannot write"))?;
        }
        self.check_still_there()?;
        if let Some(temp) = self.temp.take() {
            if let Err(e) = std::fs::rename(&temp, &self.target) {
                // The output is complete: it is left where it is, named,
                // rather than thrown away with the run that made it.
                return Err(Error::invalid(format!(
                    "{}: cannot replace: {}; the finished output is left in {}",
                    self.shown.display(),
                    crate::error::io_reason(&e),
                    temp.display()
                )));
            }
            if self.durable {
                // The rename itself is on disk once the directory is.
                let _ = File::open(parent_of(&self.target)).and_then(|d| d.sync_all());
            }
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Drop for AtomicFile {
    /// An output dropped before [`AtomicFile::commit`] is discarded: the
    /// target keeps what it had.
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Completes `outputs` together: each is written out, and each checked
/// to be able to take its place, before any replaces its file. A
/// directory made read-only during a run left the outputs before it
/// replaced and those after it not, where the run said it failed.
pub fn commit_all(outputs: Vec<AtomicFile>) -> Result<()> {
    let mut outputs = outputs;
    for o in &mut outputs {
        o.flush()?;
    }
    for o in &outputs {
        o.ready()?;
    }
    // What goes through a descriptor first: a copy cut short is taken
    // back before anything else was replaced.
    outputs.sort_by_key(|o| o.through.is_none());
    outputs.into_iter().try_for_each(AtomicFile::commit)
}

/// Fails, as a shell's `>` would, when this user may not write the
/// existing file `target` (named `shown`): its permission bits or ACL
/// forbid it, it is immutable or on a read-only file system. The kernel
/// judges (`access(2)` with the effective IDs, which `open` uses): root
/// may replace a file no one may write, as it may write it with `>`.
/// Replacing it by rename needs only the directory, so without this a
/// write-protected file would be replaced without a word.
fn may_write(shown: &Path, target: &Path) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(target.as_os_str().as_bytes()) else { return Ok(()) };
    // SAFETY: a NUL-terminated path that lives across the call.
    let refused = unsafe { libc::faccessat(libc::AT_FDCWD, c_path.as_ptr(), libc::W_OK, libc::AT_EACCESS) } != 0;
    if refused {
        return Err(Error::io(shown, "cannot write")(std::io::Error::last_os_error()));
    }
    Ok(())
}

/// The directory a path is in (`.` for a bare name).
/// Which directories an output may need created: none.
const NO_DIRECTORY: &str = "dirtyviz creates no directory for an output";

/// Why creating `path` (or a file beside it) in `dir` failed: a directory
/// that is not there, one that takes no new entries (`/proc`, where the
/// system answers "not found" too), or the system's own reason. `creates`
/// says which directories dirtyviz makes itself, for the first case;
/// `beside`, that the file is a temporary one beside an output, renamed
/// over it (said where the directory refuses it).
pub fn cannot_create_in(path: &Path, dir: &Path, creates: &str, beside: bool, e: std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::NotFound if !dir.is_dir() => {
            Error::invalid(format!("{}: the directory {} does not exist ({creates})", path.display(), dir.display()))
        }
        std::io::ErrorKind::NotFound => Error::invalid(format!(
            "{}: the directory {} takes no new files (the system answered: not found)",
            path.display(),
            dir.display()
        )),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => Error::invalid(format!(
            "{}: {} in {}: {}{}",
            path.display(),
            if beside { "cannot create a file" } else { "cannot be created" },
            dir.display(),
            crate::error::io_reason(&e),
            if beside { " (an output is written beside its file and renamed over it)" } else { "" }
        )),
        _ => Error::io(path, "cannot create")(e),
    }
}

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file writing `path` replaces: `path` with symbolic links followed
/// (also a link to a file not there yet). A path ending in `/` names a
/// directory: refused, unless it is one (which [`AtomicFile::create`]
/// refuses in its own words).
fn resolve(path: &Path) -> Result<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    if path.as_os_str().as_bytes().ends_with(b"/") && !path.is_dir() {
        return Err(Error::invalid(format!(
            "{}: ends in /, so it names a directory, not a file to write",
            path.display()
        )));
    }
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p).map_err(Error::io(path, "cannot read link"))?;
                p = if link.is_absolute() { link } else { parent_of(&p).join(link) };
            }
            // Said before a run, not found when its output is renamed
            // into place at the end.
            Err(e) if e.raw_os_error() == Some(libc::ENAMETOOLONG) => return Err(too_long(path)),
            _ => return Ok(p),
        }
    }
    Err(Error::invalid(format!("{}: too many levels of symbolic links", path.display())))
}

/// A file of no name to keep an output in until it is complete: made in
/// `dir` (beside the file it goes to) and its name removed at once, or in
/// the system's temporary directory where `dir` takes no new file. A
/// process killed outright leaves nothing behind.
fn nameless_file(dir: &Path) -> std::io::Result<File> {
    let mut failed = None;
    for dir in [dir.to_path_buf(), std::env::temp_dir()] {
        for _ in 0..64 {
            let name = dir.join(format!(
                ".dirtyviz-{}-{}.tmp",
                std::process::id(),
                TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            match OpenOptions::new().read(true).write(true).create_new(true).open(&name) {
                Ok(file) => {
                    std::fs::remove_file(&name)?;
                    return Ok(file);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    // The target's directory's reason, not the fallback's.
                    failed.get_or_insert(e);
                    break;
                }
            }
        }
    }
    Err(failed.unwrap_or_else(|| std::io::Error::from(std::io::ErrorKind::AlreadyExists)))
}

/// Fails where `path` is longer than the file system takes (a name of
/// more than 255 bytes, a path of more than 4095), as an output's name
/// is refused before a run: `plot --out` made its directory only after
/// simulating.
pub fn name_fits(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.raw_os_error() == Some(libc::ENAMETOOLONG) => Err(too_long(path)),
        _ => Ok(()),
    }
}

fn too_long(path: &Path) -> Error {
    Error::invalid(format!(
        "{}: the name is too long for the file system (at most {} bytes a name, {} a path)",
        path.display(),
        NAME_MAX,
        libc::PATH_MAX - 1
    ))
}

/// The longest name a directory entry may have on Linux's file systems
/// \[bytes\].
const NAME_MAX: usize = 255;

/// The file behind a descriptor of this process that `path` names
/// through the kernel's links (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`), where it is a regular file: the shell opened it
/// (`>> log` appends, and the summary goes there too), so it is written
/// through that descriptor. Replaced by a new file, its earlier content
/// was lost and what else went to standard output went to the old one.
pub(crate) fn open_descriptor(path: &Path) -> Result<Option<File>> {
    use std::os::fd::FromRawFd;
    let own = format!("/proc/{}/fd/", std::process::id());
    let number = |p: &Path| -> Option<i32> {
        let s = p.to_str()?;
        let n =
            s.strip_prefix("/proc/self/fd/").or_else(|| s.strip_prefix("/dev/fd/")).or_else(|| s.strip_prefix(&own))?;
        n.parse().ok()
    };
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        if let Some(fd) = number(&p) {
            // SAFETY: duplicating a descriptor number is sound whatever
            // it is; -1 when none is open.
            let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
            if dup < 0 {
                return Ok(None);
            }
            // SAFETY: `dup` was just opened by this process and nothing
            // else owns it.
            let file = unsafe { File::from_raw_fd(dup) };
            if !file.metadata().is_ok_and(|m| m.is_file()) {
                return Ok(None);
            }
            // SAFETY: F_GETFL reads the descriptor's flags, nothing else.
            let flags = unsafe { libc::fcntl(dup, libc::F_GETFL) };
            if flags >= 0 && flags & libc::O_ACCMODE == libc::O_RDONLY {
                return Err(Error::invalid(format!(
                    "{}: descriptor {fd} is open for reading only (`{fd}<` in the shell); give it with `{fd}>>` or `{fd}>`",
                    path.display()
                )));
            }
            return Ok(Some(file));
        }
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let Ok(link) = std::fs::read_link(&p) else { return Ok(None) };
                p = if link.is_absolute() { link } else { parent_of(&p).join(link) };
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// What makes two paths the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Identity {
    /// Device and inode, for a file that exists.
    inode: Option<(u64, u64)>,
    /// Canonical path (for a file not there yet, its directory's
    /// canonical path and its name).
    path: PathBuf,
    /// A regular file (devices such as /dev/null may be shared).
    regular: bool,
}

fn identity(path: &Path) -> Result<Identity> {
    let target = resolve(path)?;
    match std::fs::metadata(&target) {
        Ok(meta) => Ok(Identity {
            inode: Some((meta.dev(), meta.ino())),
            path: std::fs::canonicalize(&target).unwrap_or(target),
            regular: meta.is_file(),
        }),
        Err(_) => {
            let dir = parent_of(&target);
            let dir = std::fs::canonicalize(&dir).map_err(|_| {
                Error::invalid(format!(
                    "{}: the directory {} does not exist ({NO_DIRECTORY})",
                    path.display(),
                    dir.display()
                ))
            })?;
            let name =
                target.file_name().ok_or_else(|| Error::invalid(format!("{}: not a file name", path.display())))?;
            Ok(Identity { inode: None, path: dir.join(name), regular: true })
        }
    }
}

/// Standard input's file, where it is a file (`< FILE`); `None` for a
/// pipe or a terminal, which no output can be.
fn stdin_identity() -> Option<Identity> {
    use std::os::fd::AsFd;
    let file = File::from(std::io::stdin().as_fd().try_clone_to_owned().ok()?);
    let meta = file.metadata().ok().filter(std::fs::Metadata::is_file)?;
    // Known by its inode: an output with none (not there yet) is no file
    // standard input reads.
    Some(Identity { inode: Some((meta.dev(), meta.ino())), path: PathBuf::from("-"), regular: true })
}

impl Identity {
    fn same(&self, other: &Identity) -> bool {
        match (self.inode, other.inode) {
            (Some(a), Some(b)) => a == b,
            _ => self.path == other.path,
        }
    }
}

/// A file a command reads or writes, and how the user knows it.
#[derive(Clone, Copy, Debug)]
pub struct Named<'a> {
    /// How messages call it: `--trace`, "the scenario", "the progress file".
    pub role: &'a str,
    /// Where it is.
    pub path: &'a Path,
}

/// Writes `bytes` to standard output and flushes them. A reader that went
/// away (`dirtyviz machines | head -1`) is not an error: Ok(false), the
/// output just stops. Any other failure (a full disk behind `>`) is an
/// error naming standard output, so that a redirected report is never
/// silently cut short.
pub fn to_stdout(bytes: &[u8]) -> Result<bool> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Error::io(Path::new("standard output"), "writing")(e)),
    }
}

/// Refuses `path` as the output `role` names when it is `-`, standard
/// output, saying what to give instead (`ask`: "name a file").
pub fn not_standard_output(role: &str, path: &Path, ask: &str) -> Result<()> {
    match path == Path::new("-") {
        true => Err(Error::invalid(format!(
            "{role} -: standard output is not an output here; {ask} (./- for one called -)"
        ))),
        false => Ok(()),
    }
}

/// Refuses an output that is the same file as an input or as another
/// output, an output that is a directory, and an output whose directory
/// does not exist. Inputs that do
/// not exist are skipped; an input named `-` is standard input, as the
/// shell opened it (`view - --csv t.txt < t.txt` would read the trace
/// it replaces). An output named `-` is refused too: a command that
/// writes to standard output says so before calling this.
pub fn check_distinct(inputs: &[Named], outputs: &[Named]) -> Result<()> {
    let input = |n: &Named| {
        if n.path == Path::new("-") {
            return stdin_identity();
        }
        identity(n.path).ok().filter(|i| i.inode.is_some())
    };
    let ins: Vec<(Named, Identity)> = inputs.iter().filter_map(|n| Some((*n, input(n)?))).collect();
    let mut outs: Vec<(Named, Identity)> = Vec::new();
    for o in outputs {
        not_standard_output(o.role, o.path, "name a file")?;
        let id = identity(o.path)?;
        if id.inode.is_some() && !id.regular && std::fs::metadata(o.path).is_ok_and(|m| m.is_dir()) {
            return Err(Error::invalid(format!("{}: is a directory, not a file to write", o.path.display())));
        }
        if id.inode.is_some() && id.regular {
            may_write(o.path, &resolve(o.path)?)?;
        }
        if let Some((i, _)) = ins.iter().find(|(_, i)| i.same(&id)) {
            return Err(Error::invalid(format!(
                "{} {} is the same file as {} {}: refusing to overwrite it",
                o.role,
                o.path.display(),
                i.role,
                if i.path == Path::new("-") { "on standard input".into() } else { i.path.display().to_string() }
            )));
        }
        if let Some((other, _)) = outs.iter().find(|(_, other)| other.same(&id) && id.regular && other.regular) {
            return Err(Error::invalid(format!(
                "{} {} and {} {} are the same file: give each output its own",
                other.role,
                other.path.display(),
                o.role,
                o.path.display()
            )));
        }
        outs.push((*o, id));
    }
    Ok(())
}

/// `time` as `YYYYMMDD-HHMMSS` in UTC, for file names that sort by time.
pub fn timestamp(time: std::time::SystemTime) -> String {
    let secs = time.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (proleptic Gregorian).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}-{:02}{:02}{:02}", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    fn scratch(name: &str) -> Scratch {
        Scratch::new(&format!("output-{name}"))
    }

    #[test]
    fn an_output_appears_only_when_committed() {
        let dir = scratch("commit");
        let path = dir.join("out.txt");
        std::fs::write(&path, "old").expect("write");
        let mut f = AtomicFile::create(&path).expect("create");
        f.put(b"new").expect("put");
        f.flush().expect("flush");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old");
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "old", "a dropped output changes nothing");
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "no temporary file is left");
        let mut f = AtomicFile::create(&path).expect("create");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1);
    }

    #[test]
    fn a_temporary_name_left_behind_is_passed_over() {
        let dir = scratch("left-behind");
        let next = TEMP_COUNTER.load(Ordering::Relaxed);
        let left = |n: u64| dir.join(format!(".out.txt.dirtyviz-{}-{n}.tmp", std::process::id()));
        for n in next..next + 64 {
            std::fs::write(left(n), "another run's").expect("write");
        }
        let mut f = AtomicFile::create(&dir.join("out.txt")).expect("a name of its own");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(dir.join("out.txt")).expect("read"), "new");
        assert!((next..next + 64).all(|n| std::fs::read_to_string(left(n)).is_ok_and(|t| t == "another run's")));
    }

    #[test]
    fn an_output_whose_directory_is_removed_stops_with_a_message() {
        let dir = scratch("vanished");
        let path = dir.join("out.txt");
        let mut f = AtomicFile::create(&path).expect("create");
        f.put(b"a first line\n").expect("put");
        std::fs::remove_dir_all(&dir).expect("removed");
        let line = [b'x'; 1 << 16];
        let mut put = 0u64;
        let e = loop {
            match f.put(&line) {
                Ok(()) => put += line.len() as u64,
                Err(e) => break e.to_string(),
            }
            assert!(put <= CHECK_EVERY_BYTES, "still writing after {put} bytes");
        };
        assert!(e.starts_with(&format!("{}: the directory {} ", path.display(), dir.display())), "{e}");
        assert!(e.ends_with("was removed while the output was written"), "{e}");
        let mut f = {
            std::fs::create_dir_all(&dir).expect("dir again");
            AtomicFile::create(&path).expect("create")
        };
        f.put(b"short").expect("put");
        std::fs::remove_dir_all(&dir).expect("removed");
        let e = f.commit().expect_err("nowhere to go").to_string();
        assert!(e.ends_with("was removed while the output was written"), "{e}");
    }

    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let dir = scratch("link");
        std::fs::write(dir.join("real"), "old").expect("write");
        std::os::unix::fs::symlink("real", dir.join("link")).expect("symlink");
        let mut f = AtomicFile::create(&dir.join("link")).expect("create");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        assert!(std::fs::symlink_metadata(dir.join("link")).expect("meta").file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(dir.join("real")).expect("read"), "new");
    }

    #[test]
    fn a_directory_that_takes_no_files_is_not_called_missing() {
        // /proc answers "not found" to a new file in a directory it has.
        if !Path::new("/proc/self").is_dir() {
            return;
        }
        let e = AtomicFile::create(Path::new("/proc/dirtyviz-test.json")).err().expect("refused");
        assert_eq!(
            e.to_string(),
            "/proc/dirtyviz-test.json: the directory /proc takes no new files (the system answered: not found)"
        );
    }

    #[test]
    fn missing_directories_are_not_created() {
        let dir = scratch("missing");
        let e = AtomicFile::create(&dir.join("no/such/dir/x.csv")).err().expect("refused");
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(!dir.join("no").exists());
        let e = AtomicFile::create(&dir).err().expect("a directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
        let e = AtomicFile::create(&dir.join("new/")).err().expect("a directory's name");
        assert!(e.to_string().ends_with("new/: ends in /, so it names a directory, not a file to write"), "{e}");
        let e = check_distinct(&[], &[Named { role: "--csv", path: &dir.join("new/") }]).expect_err("refused");
        assert!(e.to_string().contains("ends in /"), "{e}");
        let e = check_distinct(&[], &[Named { role: "--record", path: &dir }]).expect_err("a directory");
        assert_eq!(e.to_string(), format!("{}: is a directory, not a file to write", dir.display()));
    }

    #[test]
    fn devices_are_written_directly() {
        let mut f = AtomicFile::create(Path::new("/dev/null")).expect("create");
        f.put(b"x").expect("put");
        f.commit().expect("commit");
        let mut f = AtomicFile::create(Path::new("/dev/full")).expect("create");
        f.put(b"x").expect("buffered");
        let e = f.commit().expect_err("full");
        assert_eq!(e.to_string(), "/dev/full: cannot write: No space left on device");
    }

    /// A broken pipe stops the command quietly only where the output
    /// waits on a reader (a pipe, FIFO or socket): behind a file that is
    /// not one, the same error is a failed write, reported.
    #[test]
    fn a_broken_pipe_is_quiet_only_on_a_pipe() {
        for waits in [true, false] {
            let (reader, writer) = std::io::pipe().expect("pipe");
            drop(reader);
            let file = File::from(std::os::fd::OwnedFd::from(writer));
            let stopped: Stopped = std::sync::Arc::new(|| None);
            let mut out = AtomicFile::new(Path::new("out"), PathBuf::from("out"), None, file, stopped);
            out.out.get_mut().waits = waits;
            out.put(b"row\n").expect("buffered");
            match out.commit().expect_err("the reader is gone") {
                Error::ReaderGone => assert!(waits),
                e => assert_eq!((waits, e.to_string()), (false, "out: cannot write: Broken pipe".to_string())),
            }
        }
    }

    #[test]
    fn a_replaced_file_keeps_its_owner_and_a_long_name_is_written() {
        let dir = scratch("owner");
        // 250 bytes: the shell may write it, the temporary name beside it
        // is cut to fit.
        let long = dir.join("é".repeat(125));
        std::fs::write(&long, "old").expect("the system takes the name");
        let mut f = AtomicFile::create(&long).expect("create");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&long).expect("read"), "new");
        // Only root may give a file away: as another user the owner is
        // the same before and after anyway.
        let path = dir.join("theirs.csv");
        std::fs::write(&path, "old").expect("write");
        let _ = std::os::unix::fs::chown(&path, Some(65534), Some(65534));
        let before = std::fs::metadata(&path).expect("meta");
        let mut f = AtomicFile::create(&path).expect("create");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        let after = std::fs::metadata(&path).expect("meta");
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    }

    #[test]
    fn the_same_file_twice_is_refused() {
        let dir = scratch("same");
        let input = dir.join("m.ron");
        std::fs::write(&input, "Scenario()").expect("write");
        std::fs::hard_link(&input, dir.join("hard.ron")).expect("hard link");
        std::os::unix::fs::symlink("m.ron", dir.join("soft.ron")).expect("symlink");
        fn named<'a>(role: &'a str, path: &'a Path) -> Named<'a> {
            Named { role, path }
        }
        let ins = [named("the scenario", input.as_path())];
        for out in ["m.ron", "hard.ron", "soft.ron", "./m.ron"] {
            let p = dir.join(out);
            let e = check_distinct(&ins, &[named("--trace", &p)]).expect_err(out);
            assert!(e.to_string().contains("is the same file as the scenario"), "{e}");
        }
        let (a, b) = (dir.join("a"), dir.join("sub/../a"));
        std::fs::create_dir(dir.join("sub")).expect("sub");
        let e = check_distinct(&ins, &[named("--trace", &a), named("--csv", &b)]).expect_err("same output");
        assert!(e.to_string().contains("--trace") && e.to_string().contains("--csv"), "{e}");
        let b = dir.join("b");
        check_distinct(&ins, &[named("--trace", &a), named("--csv", &b)]).expect("distinct");
        let null = Path::new("/dev/null");
        check_distinct(&ins, &[named("--trace", null), named("--csv", null)]).expect("/dev/null twice is fine");
    }

    #[test]
    fn a_file_the_user_may_not_write_is_refused_as_the_kernel_would() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("protected");
        let path = dir.join("prot.csv");
        std::fs::write(&path, "keep").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let outputs = [Named { role: "--csv", path: &path }];
        // SAFETY: no arguments, no memory.
        if unsafe { libc::geteuid() } == 0 {
            // Root may write it with `>`: replacing it is what it may do.
            check_distinct(&[], &outputs).expect("root may write it");
            let mut f = AtomicFile::create(&path).expect("root may write it");
            f.put(b"new").expect("put");
            f.commit().expect("commit");
            assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        } else {
            let want = format!("{}: cannot write: Permission denied", path.display());
            assert_eq!(check_distinct(&[], &outputs).expect_err("refused up front").to_string(), want);
            assert_eq!(AtomicFile::create(&path).err().expect("refused").to_string(), want);
            assert_eq!(std::fs::read_to_string(&path).expect("read"), "keep");
            assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "no temporary file is left");
        }
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o7777;
        assert_eq!(mode, 0o444, "the file keeps its mode");
        // A file the user may write keeps its mode when replaced.
        let own = dir.join("own.csv");
        std::fs::write(&own, "old").expect("write");
        std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let mut f = AtomicFile::create(&own).expect("create");
        f.put(b"new").expect("put");
        f.commit().expect("commit");
        assert_eq!(std::fs::metadata(&own).expect("meta").permissions().mode() & 0o7777, 0o600);
    }

    #[test]
    fn timestamps_sort_by_time() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_764_510_900);
        assert_eq!(timestamp(t), "20251130-135500");
        assert_eq!(timestamp(std::time::UNIX_EPOCH), "19700101-000000");
        let leap = std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400);
        assert_eq!(timestamp(leap), "20000229-000000");
    }
}
