//! How the dashboard shows what it shows, the same for a simulation and
//! for a kernel trace: the chart shown alone, the help, the palette and
//! markers, the y scale of charts 4 and 5, and the task table's focus and
//! scroll.

use super::{Marker, Msg, ThemeKind};

/// What the status line says right after `l` turned the log scale of
/// charts 4 and 5 on (it then has no other log-scale mark).
pub const LOG_SCALE_NOTE: &str = "charts 4 and 5: log scale";

/// The view settings the keys change.
#[derive(Clone, Debug)]
pub struct Screen {
    /// The chart shown alone, 1-5.
    pub zoom: Option<u8>,
    /// That chart was chosen with its key, not by a lesson's step: where
    /// a lesson's body has room for one panel it keeps it, rather than
    /// give it up to the task table the step names.
    pub zoom_by_key: bool,
    /// The key help is open.
    pub help: bool,
    /// Rows the help is scrolled by.
    pub help_scroll: u16,
    /// The most rows the help can be scrolled by in the terminal as last
    /// drawn (`u16::MAX` until it is drawn).
    pub help_room: u16,
    /// Rows a page of the help scrolls by in the terminal as last drawn.
    pub help_page: u16,
    /// The palette.
    pub theme: ThemeKind,
    /// How chart points are drawn.
    pub marker: Marker,
    /// Charts 4 and 5 use a logarithmic y axis.
    pub log_scale: bool,
    /// The task table has the keyboard focus.
    pub tasks_focus: bool,
    /// Rows the task table is scrolled by.
    pub task_scroll: usize,
    /// The most rows the task table can be scrolled by in the terminal
    /// as last drawn (`usize::MAX` until it is drawn, or when it is not).
    pub task_room: usize,
    /// Rows a page of the task table scrolls by: the task rows it showed
    /// as last drawn (at least 1).
    pub task_page: usize,
}

/// How a task table as drawn scrolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskRoom {
    /// The most rows it can be scrolled by: until its last page fills it.
    pub last: usize,
    /// Rows a page scrolls by: the task rows it shows (at least 1).
    pub page: usize,
}

impl TaskRoom {
    /// Two tables drawn at once (a trace beside its model): scrolled as
    /// far as the longer goes, a page no longer than the shorter shows,
    /// so that a page skips no row of either.
    pub fn with(self, other: Option<TaskRoom>) -> TaskRoom {
        match other {
            Some(o) => TaskRoom { last: self.last.max(o.last), page: self.page.min(o.page) },
            None => self,
        }
    }
}

impl Screen {
    /// Everything shown, nothing focused, in `theme` with `marker`.
    pub fn new(theme: ThemeKind, marker: Marker) -> Screen {
        Screen {
            zoom: None,
            zoom_by_key: false,
            help: false,
            help_scroll: 0,
            help_room: u16::MAX,
            help_page: 10,
            theme,
            marker,
            log_scale: false,
            tasks_focus: false,
            task_scroll: 0,
            task_room: usize::MAX,
            task_page: 1,
        }
    }

    /// Applies `msg` if it only changes how things are shown; `task_rows`
    /// gives the task table's length when scrolling needs it. False for
    /// any other message.
    pub fn update(&mut self, msg: Msg, task_rows: impl FnOnce() -> usize) -> bool {
        match msg {
            Msg::Zoom(n) => {
                self.zoom = if self.zoom == Some(n) { None } else { Some(n) };
                self.zoom_by_key = self.zoom.is_some();
            }
            Msg::Back => {
                if self.help {
                    self.help = false;
                } else if self.tasks_focus {
                    self.tasks_focus = false;
                } else {
                    self.zoom = None;
                    self.zoom_by_key = false;
                }
            }
            Msg::Help => {
                self.help = !self.help;
                self.help_scroll = 0;
            }
            Msg::ScrollHelp(rows) => self.scroll_help(rows),
            Msg::PageHelp(down) => self.page_help(down),
            Msg::Theme => {
                self.theme = match self.theme {
                    ThemeKind::Dark => ThemeKind::Light,
                    ThemeKind::Light => ThemeKind::Dark,
                    ThemeKind::Mono => ThemeKind::Mono,
                };
            }
            Msg::LogScale => self.log_scale = !self.log_scale,
            Msg::FocusTasks => self.tasks_focus = !self.tasks_focus,
            Msg::ScrollTasks(rows) => self.scroll_tasks(rows as isize, task_rows()),
            Msg::TasksEnd(last) => self.scroll_tasks(if last { isize::MAX } else { isize::MIN }, task_rows()),
            Msg::PageTasks(down) => {
                let page = self.task_page.max(1) as isize;
                self.scroll_tasks(if down { page } else { -page }, task_rows());
            }
            _ => return false,
        }
        true
    }

    /// Applies `msg` as [`Screen::update`] does and puts
    /// [`Screen::note_for`]'s note on the status line `status`; false for
    /// a message that is not the view's. That a table not shown scrolled,
    /// or that Esc found nothing to close, passes as a key that did
    /// nothing does.
    pub fn apply(
        &mut self,
        msg: Msg,
        task_rows: impl FnOnce() -> usize,
        status: &mut String,
        passing: &mut super::PassingNote,
    ) -> bool {
        let nothing_open = !self.help && !self.tasks_focus && self.zoom.is_none();
        let scrolled_from = self.task_scroll;
        if !self.update(msg, task_rows) {
            return false;
        }
        // A table already at the end a key scrolls to says so, as keys
        // that do nothing do (↑ at the top said nothing).
        let up = match msg {
            Msg::ScrollTasks(rows) => Some(rows < 0),
            Msg::PageTasks(down) | Msg::TasksEnd(down) => Some(!down),
            _ => None,
        };
        match (self.note_for(msg), msg) {
            (Some(note), Msg::ScrollTasks(_) | Msg::PageTasks(_) | Msg::TasksEnd(_)) => {
                passing.cover(status, note.into())
            }
            (None, _) if up.is_some() && self.task_scroll == scrolled_from => {
                let end = if up == Some(true) { "first" } else { "last" };
                passing.cover(status, format!("the task table shows its {end} task already"));
            }
            (Some(note), _) => *status = note.into(),
            (None, Msg::Back) if nothing_open => {
                passing.cover(
                    status,
                    "nothing to close: no chart is shown alone, no help open (1-5 zooms a chart)".into(),
                );
            }
            (None, _) => {}
        }
        true
    }

    /// What the status line says after `msg` changed how things are shown,
    /// where the change may not be seen: the y scale of charts that may
    /// be off the screen, a palette with no other to switch to, a task
    /// table scrolled where none is drawn.
    pub fn note_for(&self, msg: Msg) -> Option<&'static str> {
        match msg {
            Msg::ScrollTasks(_) | Msg::PageTasks(_) | Msg::TasksEnd(_)
                if self.task_room == usize::MAX && !self.tasks_focus =>
            {
                Some("the task table is not on the screen: T shows it")
            }
            Msg::LogScale if self.log_scale => Some(LOG_SCALE_NOTE),
            Msg::LogScale => Some("charts 4 and 5: linear scale"),
            Msg::Theme => Some(match self.theme {
                ThemeKind::Dark => "palette: dark",
                ThemeKind::Light => "palette: light",
                ThemeKind::Mono => {
                    "no colours (--theme mono, NO_COLOR, or a TERM such as vt100): no palette to switch to"
                }
            }),
            _ => None,
        }
    }

    /// Scrolls the task table of `n` rows by `rows`, no further than its
    /// last page as drawn.
    fn scroll_tasks(&mut self, rows: isize, n: usize) {
        let last = n.saturating_sub(1).min(self.task_room);
        self.task_scroll = self.task_scroll.saturating_add_signed(rows).min(last);
    }

    /// Scrolls the help by `rows`, no further than its end.
    pub fn scroll_help(&mut self, rows: i16) {
        self.help_scroll = self.help_scroll.saturating_add_signed(rows).min(self.help_room);
    }

    /// Scrolls the help a page down (`true`) or up, no further than its
    /// ends.
    pub fn page_help(&mut self, down: bool) {
        let page = i16::try_from(self.help_page.max(1)).unwrap_or(i16::MAX);
        self.scroll_help(if down { page } else { -page });
    }

    /// Notes how far the help can scroll in the terminal as drawn, and by
    /// how much a page: a larger terminal pulls the help back to its end.
    pub fn set_help_room(&mut self, rows: u16, page: u16) {
        self.help_room = rows;
        self.help_page = page;
        self.help_scroll = self.help_scroll.min(rows);
    }

    /// Notes how far the task table can scroll as drawn, and by how much
    /// a page (`None`: it is not on the screen): its scroll stops at its
    /// last full page, and a larger table pulls it back there.
    pub fn set_task_room(&mut self, room: Option<TaskRoom>) {
        self.task_room = room.map_or(usize::MAX, |r| r.last);
        if let Some(r) = room {
            self.task_page = r.page.max(1);
        }
        self.task_scroll = self.task_scroll.min(self.task_room);
    }
}
