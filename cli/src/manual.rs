//! The manual pages: `sudoku man` (the page of `sudoku`), `sudoku man COMMAND` (a subcommand's page,
//! `sudoku-COMMAND(1)`) and `sudoku man --dir DIR` (every page as a file). clap_mangen renders the sections clap
//! knows; EXAMPLES (the `Examples:` of `--help`) and SEE ALSO, which name only pages written here, are added here.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;

use crate::cli::Cli;

/// The command tree with the names the pages use (`sudoku-solve` for `sudoku solve`).
fn built() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The subcommands that get a page of their own.
fn pages(root: &clap::Command) -> impl Iterator<Item = &clap::Command> {
    root.get_subcommands().filter(|c| !c.is_hide_set())
}

/// Writes the page of `sudoku` (`None`) or of one of its subcommands to `out`.
pub fn write_page(command: Option<&str>, out: &mut dyn Write) -> anyhow::Result<()> {
    let root = built();
    match command {
        None => render(&root, &root, out),
        Some(name) => {
            let sub = pages(&root).find(|c| c.get_name() == name).ok_or_else(|| {
                let names: Vec<&str> = pages(&root).map(clap::Command::get_name).collect();
                anyhow::anyhow!("man: no page for '{name}'; the pages: {}", names.join(", "))
            })?;
            render(sub, &root, out)
        }
    }
}

/// Writes every page into `dir` (created when missing): `sudoku.1` and `sudoku-COMMAND.1`; returns their paths.
pub fn write_all(dir: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let root = built();
    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot create the folder for the pages: {e}",
            dir.display()
        )
    })?;
    let mut written = Vec::new();
    for cmd in std::iter::once(&root).chain(pages(&root)) {
        let path = dir.join(format!("{}.1", page_name(cmd)));
        let mut text = Vec::new();
        render(cmd, &root, &mut text)?;
        std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// `sudoku` or `sudoku-solve`.
fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_string()
}

/// One page: clap_mangen's sections, then EXAMPLES and SEE ALSO.
fn render(cmd: &clap::Command, root: &clap::Command, out: &mut dyn Write) -> anyhow::Result<()> {
    let man =
        clap_mangen::Man::new(cmd.clone()).source(format!("sudoku {}", env!("CARGO_PKG_VERSION")));
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if cmd.get_subcommands().any(|c| !c.is_hide_set()) {
        man.render_subcommands_section(out)?;
    }
    if let Some(examples) = cmd.get_after_help() {
        writeln!(out, ".SH EXAMPLES")?;
        let text = examples.to_string();
        let body = text.strip_prefix("Examples:\n").unwrap_or(&text);
        writeln!(out, ".nf")?;
        for line in body.lines() {
            writeln!(out, "{}", roff_line(line.trim_start()))?;
        }
        writeln!(out, ".fi")?;
    }
    let see_also: Vec<String> = if std::ptr::eq(cmd, root) {
        pages(root)
            .map(|c| format!("{}(1)", page_name(c)))
            .collect()
    } else {
        vec!["sudoku(1)".to_string()]
    };
    writeln!(out, ".SH \"SEE ALSO\"")?;
    writeln!(out, "{}", roff_line(&see_also.join(", ")))?;
    writeln!(out, ".PP")?;
    writeln!(
        out,
        "{}",
        roff_line(
            "Every page: sudoku man --dir DIR; one page: sudoku man COMMAND | man -l -. \
             The README of the repository has the formats, exit codes and measurements."
        )
    )?;
    if cmd.get_version().is_some() {
        man.render_version_section(out)?;
    }
    Ok(())
}

/// A line of text for roff: backslashes and hyphens escaped, a leading `.` or `'` made literal.
fn roff_line(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(command: Option<&str>) -> String {
        let mut out = Vec::new();
        write_page(command, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_page_named_in_see_also_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let written = write_all(dir.path()).unwrap();
        let names: Vec<String> = written
            .iter()
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        assert!(names.contains(&"sudoku".to_string()));
        assert!(names.contains(&"sudoku-solve".to_string()));
        for path in &written {
            let text = std::fs::read_to_string(path).unwrap();
            let see = text
                .split(".SH \"SEE ALSO\"\n")
                .nth(1)
                .expect("a SEE ALSO section");
            let first = see.lines().next().unwrap();
            for reference in first.split(", ") {
                let name = reference.trim_end_matches("(1)").replace("\\-", "-");
                assert!(
                    names.contains(&name),
                    "{}: {reference} has no page",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn pages_have_examples_and_their_own_title() {
        let solve = page(Some("solve"));
        assert!(solve.contains("\n.TH sudoku-solve 1 "), "{solve}");
        assert!(solve.contains(".SH EXAMPLES\n.nf\nsudoku solve data/puzzles.txt"));
        assert!(solve.contains("sudoku(1)"));
        assert!(page(None).contains(".SH EXAMPLES"));
        let mut out = Vec::new();
        assert!(write_page(Some("sovle"), &mut out).is_err());
    }
}
