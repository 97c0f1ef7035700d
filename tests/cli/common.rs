//! Helpers shared by the integration tests.

use std::os::fd::{FromRawFd as _, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The binary under test, in colour whatever the tests' environment says
/// (a test that wants NO_COLOR sets it).
pub fn dirtyviz() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dirtyviz"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// A path in the tests' scratch directory, unique per name.
pub fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// An empty directory in the tests' scratch directory, made afresh.
pub fn empty_dir(name: &str) -> PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `dirtyviz run` with `args` and returns its summary JSON.
pub fn summary(name: &str, args: &[&str]) -> Value {
    let path = tmp(&format!("{name}.summary.json"));
    let out = dirtyviz().args(["run", "-q", "--summary-json"]).arg(&path).args(args).output().expect("runs");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&std::fs::read(&path).expect("summary written")).expect("summary is JSON")
}

/// A number from a JSON value.
pub fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The standard output of a run that must succeed (else its stderr is the
/// failure).
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// Waits until process `pid` catches SIGINT (its SigCgt mask in
/// /proc), so that a Ctrl-C sent next is its to handle.
pub fn wait_until_it_catches_sigint(pid: u32) {
    for _ in 0..500 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        // Signal N is bit N - 1; SIGINT is 2.
        if u64::from_str_radix(caught, 16).is_ok_and(|mask| mask & (1 << 1) != 0) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("process {pid} never caught SIGINT");
}

/// Starts `cmd`, sends it a Ctrl-C once it catches one, and checks that it
/// stops as every long command does: exit 130 and the one line saying
/// nothing was written. Returns what it printed on standard output.
pub fn interrupted(cmd: &mut Command) -> Vec<u8> {
    let child = cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("runs");
    wait_until_it_catches_sigint(child.id());
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let o = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(err.trim_end(), "error: interrupted: no output file was saved, existing files are as they were");
    o.stdout
}

/// The shipped trace with the value of each `key=value` word replaced
/// where `edit(line, key, value)` gives a new one, written as `name` in
/// the tests' scratch directory.
fn shipped_trace_with(name: &str, edit: impl Fn(&str, &str, &str) -> Option<String>) -> PathBuf {
    let shipped = format!("{}/tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(shipped).expect("fixture");
    let mut out = String::new();
    for line in text.lines() {
        let words: Vec<String> = line
            .split(' ')
            .map(|w| match w.split_once('=').and_then(|(k, v)| Some(format!("{k}={}", edit(line, k, v)?))) {
                Some(edited) => edited,
                None => w.to_string(),
            })
            .collect();
        out += &words.join(" ");
        out.push('\n');
    }
    let path = tmp(name);
    std::fs::write(&path, out).expect("written");
    path
}

/// The shipped trace with dd-1294's and dd-1295's events moved to a
/// second writeback context of the same bdi (`cgroup_ino=2345`), its
/// controller at half the rates: dirty_ratelimit 51200 KB/s, and the
/// bdi_dirty_ratelimit event's write_bw, task_ratelimit and balanced
/// halved.
pub fn two_cgroups() -> PathBuf {
    let halved = ["dirty_ratelimit", "write_bw", "task_ratelimit", "balanced_dirty_ratelimit"];
    let moved = |l: &str| {
        let l = l.trim_start();
        (l.starts_with("dd-1294 ") || l.starts_with("dd-1295 ")) && !l.contains("global_dirty_state")
    };
    shipped_trace_with("ktrace-two-cgroups.txt", |line, k, v| {
        let bdp = line.contains(" balance_dirty_pages: ");
        match k {
            _ if !moved(line) => None,
            "cgroup_ino" => Some("2345".into()),
            _ if halved.contains(&k) && !(bdp && k == "task_ratelimit") => {
                Some((v.parse::<i64>().expect("integer") / 2).to_string())
            }
            _ => None,
        }
    })
}

/// The shipped trace as a kernel of 64 KiB pages would print it: every
/// page count divided by 16, rates in KB/s and times as they are.
pub fn sixty_four_kib_pages() -> PathBuf {
    let pages = [
        "dirty",
        "writeback",
        "unstable",
        "bg_thresh",
        "thresh",
        "limit",
        "setpoint",
        "wb_setpoint",
        "wb_dirty",
        "dirtied",
        "dirtied_pause",
        "written",
    ];
    shipped_trace_with("ktrace-64k-pages.txt", |line, k, v| {
        (pages.contains(&k) && !line.contains(" bdi_dirty_ratelimit: "))
            .then(|| (v.parse::<i64>().expect("integer") / 16).to_string())
    })
}

/// The screen as a grid of characters, and the row and column of the
/// top left corner of the chart box titled `title`.
pub fn chart_corner(screen: &str, title: &str) -> (Vec<Vec<char>>, usize, usize) {
    let grid: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let (top, left) = grid
        .iter()
        .enumerate()
        .find_map(|(r, row)| {
            let text: String = row.iter().collect();
            let byte = text.find(&format!("┌ {title}"))?;
            Some((r, text[..byte].chars().count()))
        })
        .unwrap_or_else(|| panic!("{title}:\n{screen}"));
    (grid, top, left)
}

/// The plot rows of the chart titled `title` (between its y axis and its
/// right edge), as characters.
pub fn plot_rows(screen: &str, title: &str) -> Vec<Vec<char>> {
    let (grid, top, left) = chart_corner(screen, title);
    let right = (left + 1..grid[top].len()).find(|&c| grid[top][c] == '┐').expect("the box's corner");
    grid[top + 1..]
        .iter()
        .take_while(|row| !row[left + 1..right].contains(&'└'))
        .filter_map(|row| {
            let axis = (left + 1..right).find(|&c| matches!(row[c], '┤' | '│'))?;
            Some(row[axis + 1..right].to_vec())
        })
        .collect()
}

/// A pseudo-terminal of `cols` x `rows`: the controlling side and the
/// path of the terminal side.
pub fn pty(cols: u16, rows: u16) -> (OwnedFd, String) {
    // SAFETY: plain calls on a descriptor this function owns; ptsname_r
    // writes at most `buf.len()` bytes.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
        let master = OwnedFd::from_raw_fd(fd);
        // Not inherited: a child holding it would keep its own terminal
        // from ever hanging up.
        assert_eq!(libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC), 0);
        assert_eq!(libc::grantpt(fd), 0);
        assert_eq!(libc::unlockpt(fd), 0);
        let mut buf = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(fd, buf.as_mut_ptr(), buf.len()), 0);
        let size = libc::winsize { ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0 };
        assert_eq!(libc::ioctl(fd, libc::TIOCSWINSZ, &size), 0);
        let path = std::ffi::CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned();
        (master, path)
    }
}

/// What is written on the terminal of `master`, gathered by a thread
/// until the terminal hangs up.
pub fn terminal_output(master: &OwnedFd) -> std::sync::Arc<std::sync::Mutex<String>> {
    use std::io::Read;
    let shown = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let mut reader = std::fs::File::from(master.try_clone().expect("dup"));
    let into = std::sync::Arc::clone(&shown);
    std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            into.lock().expect("lock").push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    shown
}

/// Waits at most 10 s for `child` to end; past that, kills it and fails
/// saying `what` did not end it.
pub fn ended_soon(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    ended_within(child, std::time::Duration::from_secs(10), &format!("{what} did not end it"))
}

/// Waits at most `wait` for `child` to end; past that, kills it and fails
/// with `failed`.
fn ended_within(child: &mut std::process::Child, wait: std::time::Duration, failed: &str) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        if start.elapsed() > wait {
            let _ = child.kill();
            panic!("{failed}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Starts `cmd` on the terminal side `slave` of a [`pty`]: its standard
/// input, output and error, as an xterm.
pub fn spawn_on_terminal(cmd: &mut std::process::Command, slave: &str) -> std::process::Child {
    use std::process::Stdio;
    let open = || std::fs::OpenOptions::new().read(true).write(true).open(slave).expect("terminal side");
    cmd.env("TERM", "xterm-256color")
        .stdin(Stdio::from(open()))
        .stdout(Stdio::from(open()))
        .stderr(Stdio::from(open()))
        .spawn()
        .expect("starts")
}

/// The columns of the `└` and `┬` on each x axis row of two charts side
/// by side (split at `││`): the left side's and the right side's, each
/// from its own frame's left edge.
pub fn side_by_side_ticks(screen: &str) -> Vec<(Vec<usize>, Vec<usize>)> {
    let cols = |s: &str| s.chars().enumerate().filter(|(_, c)| "└┬".contains(*c)).map(|(i, _)| i).collect::<Vec<_>>();
    screen
        .lines()
        .filter(|l| l.contains('┬'))
        .filter_map(|l| l.split_once("││"))
        .map(|(a, b)| (cols(&format!("{a}│")), cols(&format!("│{b}"))))
        .collect()
}

/// Makes a FIFO at `path`, which the test owns (what an earlier run left
/// there goes first).
pub fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let c_path = std::ffi::CString::new(path.to_str().expect("UTF-8")).expect("no NUL");
    // SAFETY: mkfifo on a NUL-terminated path this test owns.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
}

/// Sends `signal` to `child` and waits at most 5 s for it to end (`what`
/// it was doing names it if it does not).
pub fn signalled(child: &mut std::process::Child, signal: libc::c_int, what: &str) -> std::process::ExitStatus {
    // SAFETY: kill() on the child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    ended_within(child, std::time::Duration::from_secs(5), &format!("{what}: still going 5 s after signal {signal}"))
}
