//! Shell completion scripts and the man page, generated from the command
//! line's own definition (`cli::Cli`) so that they never drift from it.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::Cli;

/// Writes the completion script for `shell` to `out`. The script is made
/// in memory first: clap_complete panics on a failed write, and `out` may
/// be a pipe whose reader went away.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut completed(Cli::command()), "dirtyviz", &mut script);
    match shell {
        clap_complete::Shell::Bash => script = with_names(&String::from_utf8_lossy(&script)).into_bytes(),
        clap_complete::Shell::Fish => script = with_fish_names(&String::from_utf8_lossy(&script)).into_bytes(),
        _ => {}
    }
    out.write_all(&script)
}

/// `cmd` and its subcommands as the completion scripts see them: a value
/// that names a file (a path, or a value named FILE or TRACE, or one of
/// them among others: NAME|FILE)
/// completes to files; any other (a number, a time, a size, a bdi)
/// completes to nothing, where the scripts offered the working
/// directory's files for `--seed`.
fn completed(cmd: clap::Command) -> clap::Command {
    let subcommands: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut cmd = cmd.mut_args(|arg| {
        let open = arg.get_action().takes_values()
            && arg.get_value_hint() == clap::ValueHint::Unknown
            && arg.get_possible_values().is_empty();
        if !open {
            return arg;
        }
        let names = arg.get_value_names().unwrap_or_default();
        let file = names.iter().flat_map(|n| n.split('|')).any(|n| n == "FILE" || n == "TRACE");
        arg.value_hint(if file { clap::ValueHint::FilePath } else { clap::ValueHint::Other })
    });
    for name in subcommands {
        cmd = cmd.mut_subcommand(name, completed);
    }
    cmd
}

/// The names a value may be besides a file: the presets for
/// `--scenario`, the machine profiles for `--fit`, the shipped lessons'
/// ids for a lesson, both for `check`.
fn names_for(what: &str) -> Vec<String> {
    let lessons = || crate::lesson::SHIPPED.iter().map(|(file, _)| file[..2].to_string());
    let presets = || crate::scenario::presets::names().into_iter().map(str::to_string);
    match what {
        "--scenario" => presets().collect(),
        "--fit" => crate::scenario::machine::all().iter().map(|m| m.name.clone()).collect(),
        "--lesson" | "dirtyviz__subcmd__lesson" => lessons().collect(),
        "dirtyviz__subcmd__check" => lessons().chain(presets()).collect(),
        _ => Vec::new(),
    }
}

/// The fish script with the names of [`names_for`] offered after the
/// options that take one and as the words after `lesson` and `check`.
fn with_fish_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len() + 4096);
    for line in script.lines() {
        out.push_str(line);
        // Only where the option takes a value (`-r`): `view --fit` is a flag.
        let option = ["--scenario", "--fit", "--lesson"]
            .into_iter()
            .find(|o| line.contains(&format!(" -l {} ", &o[2..])) && line.contains(" -r"));
        if let Some(option) = option {
            out.push_str(&format!(" -a \"{}\"", names_for(option).join(" ")));
        }
        out.push('\n');
    }
    for subcommand in ["lesson", "check"] {
        let names = names_for(&format!("dirtyviz__subcmd__{subcommand}"));
        out.push_str(&format!(
            "complete -c dirtyviz -n \"__fish_dirtyviz_using_subcommand {subcommand}\" -a \"{}\"\n",
            names.join(" ")
        ));
    }
    out
}

/// The bash script with the names of [`names_for`] offered: after an
/// option that takes one (beside files, where it takes a file too), and
/// as the words after `lesson` and `check`, beside files (bash completed
/// neither the ids nor the files there). The names are split at spaces
/// whatever IFS the script set for file names.
fn with_names(script: &str) -> String {
    let mut out = String::with_capacity(script.len() + 4096);
    let (mut after, mut block, mut named) = (String::new(), String::new(), false);
    // In the block of `lesson` or `check`: its words complete to files too.
    let mut positional_files = false;
    for line in script.lines() {
        let word = line.trim();
        if positional_files && word == r#"COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )"# {
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!(
                "{indent}COMPREPLY=( $(compgen -W \"${{opts}}\" -- \"${{cur}}\") $([[ ${{cur}} == -* ]] || compgen -f -- \"${{cur}}\") )\n"
            ));
            continue;
        }
        if named && word == "compopt -o nospace" {
            // A name is a whole word: a space after it.
            out.push_str(&line.replace("-o nospace", "+o nospace"));
            out.push('\n');
            continue;
        }
        if word == ";;" {
            // A case of the option's `case` ends.
            (named, after) = (false, String::new());
        }
        let names = names_for(&after);
        if !names.is_empty() && word.starts_with("COMPREPLY=(") {
            let files = if word.contains("compgen -f") { " $(compgen -f \"${cur}\")" } else { "" };
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!(
                "{indent}COMPREPLY=($(IFS=' '; compgen -W \"{}\" -- \"${{cur}}\"){files})\n",
                names.join(" ")
            ));
            after.clear();
            named = true;
            continue;
        }
        if let Some(option) = word.strip_suffix(')').filter(|w| w.starts_with("--")) {
            after = option.to_string();
        }
        if let Some(name) = word.strip_suffix(')').filter(|w| w.starts_with("dirtyviz__")) {
            block = name.to_string();
            positional_files = false;
        }
        let names = names_for(&block);
        match word.strip_prefix("opts=\"") {
            Some(opts) if !names.is_empty() => {
                let indent = &line[..line.len() - line.trim_start().len()];
                out.push_str(&format!("{indent}opts=\"{} {opts}\n", names.join(" ")));
                block.clear();
                positional_files = true;
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Writes the man page, dirtyviz(1) with a section per subcommand, as roff
/// to `out`.
pub fn man(out: &mut dyn Write) -> std::io::Result<()> {
    let cmd = Cli::command();
    let page = clap_mangen::Man::new(cmd.clone());
    let mut buf = Vec::new();
    page.render_title(&mut buf)?;
    page.render_name_section(&mut buf)?;
    page.render_synopsis_section(&mut buf)?;
    page.render_description_section(&mut buf)?;
    page.render_options_section(&mut buf)?;
    render_subcommands(&cmd, &mut buf)?;
    render_keys_section(&mut buf)?;
    render_exit_status_section(&mut buf)?;
    page.render_version_section(&mut buf)?;
    render_files_section(&mut buf)?;
    // Every part defines the apostrophe string again: once is enough.
    let text = String::from_utf8_lossy(&buf);
    let mut defined = false;
    for line in text.lines() {
        let definition = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
        if definition && defined && !line.starts_with(".el") {
            continue;
        }
        if definition && line.starts_with(".el") {
            if defined {
                continue;
            }
            defined = true;
        }
        writeln!(out, "{}", ascii(line))?;
    }
    Ok(())
}

/// `line` with every character past ASCII written as a roff escape
/// (`\(mu` for ×, `\[u2026]` for …): groff reads its input as ASCII (or
/// Latin-1) and warns of anything else.
fn ascii(line: &str) -> String {
    let mut s = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '\u{2212}' => s.push_str("\\-"),
            '\u{d7}' => s.push_str("\\(mu"),
            '\u{f7}' => s.push_str("\\(di"),
            '\u{2191}' => s.push_str("\\(ua"),
            '\u{2193}' => s.push_str("\\(da"),
            '\u{2190}' => s.push_str("\\(<-"),
            '\u{2192}' => s.push_str("\\(->"),
            c if c.is_ascii() => s.push(c),
            c => s.push_str(&format!("\\[u{:04X}]", u32::from(c))),
        }
    }
    s
}

/// One subsection per subcommand: its synopsis, what it does, and its
/// options (clap_mangen's own subcommand section lists names only).
fn render_subcommands(cmd: &clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let name = format!("dirtyviz {}", sub.get_name());
        let sub = sub.clone().bin_name(name.clone());
        let page = clap_mangen::Man::new(sub.clone());
        writeln!(out, ".SS \"{name}\"")?;
        let mut buf = Vec::new();
        page.render_synopsis_section(&mut buf)?;
        page.render_description_section(&mut buf)?;
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            page.render_options_section(&mut buf)?;
        }
        // Each part renders its own .SH heading; inside COMMANDS the
        // synopsis and description need none, the options a lead-in.
        let text = String::from_utf8_lossy(&buf)
            .lines()
            .filter_map(|l| match l.strip_prefix(".SH ") {
                Some("OPTIONS") => Some(".PP\n\\fIOptions:\\fR".to_string()),
                Some("DESCRIPTION") => Some(".PP".to_string()),
                Some(_) => None,
                None => Some(l.to_string()),
            })
            .collect::<Vec<_>>()
            .join("\n");
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// Text set in roff: a backslash doubled, a leading dot or quote
/// escaped so that it is not read as a request.
fn roff(text: &str) -> String {
    let text = text.replace('\\', "\\\\");
    if text.starts_with(['.', '\'']) { format!("\\&{text}") } else { text }
}

/// The dashboard's, a lesson's, the task table's and the trace viewer's
/// keys, from the tables `?` shows.
fn render_keys_section(out: &mut dyn Write) -> std::io::Result<()> {
    use crate::ui::keys::{HELP, TRACE};
    writeln!(out, ".SH KEYS")?;
    writeln!(out, "In the dashboard, \\fB?\\fR or \\fBF1\\fR shows these keys too.")?;
    writeln!(out, "\\fBCtrl-C\\fR and \\fBCtrl-D\\fR quit the dashboard as \\fBq\\fR does (exit status 0).")?;
    for section in HELP.iter().chain([&TRACE]) {
        writeln!(out, ".SS \"{}\"", roff(section.title))?;
        for b in section.bindings {
            writeln!(out, ".TP\n.B {}\n{}", roff(b.label), roff(b.help))?;
        }
    }
    Ok(())
}

fn render_exit_status_section(out: &mut dyn Write) -> std::io::Result<()> {
    use crate::error::{EXIT_BAD_INPUT, EXIT_BUG};
    writeln!(out, ".SH \"EXIT STATUS\"")?;
    writeln!(out, ".TP\n.B 0\nDone as asked.")?;
    writeln!(
        out,
        ".TP\n.B 1\nA lesson's check, a case's bound or a fit's profile did not hold, or a headless capture saw nothing to report."
    )?;
    writeln!(
        out,
        ".TP\n.B {EXIT_BAD_INPUT}\nBad input: a usage error, an unreadable, invalid or unwritable file, no terminal, not enough memory."
    )?;
    writeln!(
        out,
        ".TP\n.B {EXIT_BUG}\nA bug (a panic or an internal error): the terminal is restored and a report printed."
    )?;
    writeln!(
        out,
        ".TP\n.B 128+N\nEnded by signal N (SIGINT, SIGTERM, SIGHUP, SIGQUIT): 130 when a headless command is \
         interrupted by SIGINT (Ctrl-C), which then writes no output. In the dashboard Ctrl-C is a key: it quits, with 0."
    )
}

fn render_files_section(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, ".SH FILES")?;
    writeln!(out, ".TP\n.I $XDG_DATA_HOME/dirtyviz/progress.ron")?;
    writeln!(out, "Lesson progress, per user (default ~/.local/share/dirtyviz/).")?;
    writeln!(out, ".TP\n.I $XDG_DATA_HOME/dirtyviz/progress.lock")?;
    writeln!(out, "Held while the progress file is saved.")?;
    writeln!(out, ".TP\n.I $XDG_DATA_HOME/dirtyviz/sessions/")?;
    writeln!(
        out,
        "Each dashboard or lesson session's recording, as <start time>-<pid>.jsonl (the last 20 are kept, and those of sessions still running)."
    )?;
    writeln!(out, ".TP\n.I $XDG_DATA_HOME/dirtyviz/last-session.jsonl")?;
    writeln!(
        out,
        "A link to the recording of the session that ended last (in sessions/ or the --record FILE), for \\fBdirtyviz replay\\fR."
    )?;
    writeln!(out, ".SH ENVIRONMENT")?;
    writeln!(out, ".TP\n.B NO_COLOR")?;
    writeln!(out, "Draw the dashboard without colour.")?;
    writeln!(out, ".TP\n.B TERM\\fR, \\fBCOLORTERM")?;
    writeln!(
        out,
        "The colours drawn: 24-bit where COLORTERM is truecolor, 256 where TERM names them, else 16; none for a \
         TERM without colours (vt100, xterm-mono); TERM=dumb is refused."
    )?;
    writeln!(out, ".TP\n.B XDG_DATA_HOME")?;
    writeln!(out, "Where lesson progress and session recordings go: \\fI$XDG_DATA_HOME/dirtyviz/\\fR (see FILES).")?;
    writeln!(out, ".TP\n.B HOME")?;
    writeln!(
        out,
        "Without XDG_DATA_HOME, they go to \\fI$HOME/.local/share/dirtyviz/\\fR; with neither, sessions are not recorded."
    )?;
    writeln!(out, ".TP\n.B RUST_BACKTRACE, COLORBT_SHOW_HIDDEN")?;
    writeln!(
        out,
        "A crash's report (exit status 101) has a backtrace with \\fBRUST_BACKTRACE=1\\fR, every frame of it with \\fBCOLORBT_SHOW_HIDDEN=1\\fR: attach it when you report the bug (README, \\(lqReporting a bug\\(rq)."
    )
}
