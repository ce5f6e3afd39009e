//! `explain --html` end to end: the page of a file's puzzles (one section each, one drawing per step, the path's
//! end the solution), failures named and left out, the page whole or not at all, and the page rendered by a real
//! headless browser (Chromium, when installed: CI installs it) into a screenshot whose pixels show the drawings.

use std::io::Read;
use std::process::Command;

use super::util::{puzzle_lines, read_data, run, tempdir};

/// What each section's path ends on: the 81 digits after `solved: <code>`.
fn ends(html: &str) -> Vec<String> {
    html.split("<section>")
        .skip(1)
        .map(|s| {
            let at = s
                .find("solved: <code>")
                .unwrap_or_else(|| panic!("no end in {s}"))
                + 14;
            s[at..at + 81].to_string()
        })
        .collect()
}

#[test]
fn a_page_draws_every_proper_puzzle_and_names_the_others() {
    let dir = tempdir();
    let page = dir.path().join("bad.html");
    let r = run(&["explain", "--html", page.to_str().unwrap(), "data/bad.txt"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    for line in [2, 3, 4, 6] {
        assert!(
            r.stderr.contains(&format!("data/bad.txt:{line}: ")),
            "{line}: {}",
            r.stderr
        );
    }
    let html = std::fs::read_to_string(&page).unwrap();
    // Three proper puzzles; each path ends on the puzzle's solution as `solve` gives it.
    let solved = run(&["solve", "-q", "data/bad.txt"]).out();
    let solutions: Vec<&str> = solved
        .lines()
        .filter(|l| l.len() == 81 && l.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    assert_eq!(ends(&html), solutions);
    assert_eq!(
        html.matches("<svg ").count(),
        html.matches("<figure>").count()
    );
    assert!(html.matches("<svg ").count() > 30);
}

#[test]
fn a_page_appears_whole_or_not_at_all() {
    let dir = tempdir();
    // No proper puzzle: no page, and no temporary file left.
    let page = dir.path().join("none.html");
    let r = run(&[
        "explain",
        "--html",
        page.to_str().unwrap(),
        "data/several_solutions.txt",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("more than one solution"), "{}", r.stderr);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A page that cannot be written is refused up front.
    let r = run(&[
        "explain",
        "--html",
        "/nonexistent/p.html",
        "data/puzzles.txt",
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("/nonexistent/p.html: cannot create output file"),
        "{}",
        r.stderr
    );
    // Flags of the other forms are refused.
    for extra in [["--json"], ["--candidates"], ["-j2"]] {
        let mut args = vec!["explain", "--html", "p.html", "data/puzzles.txt"];
        args.extend(extra);
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}");
    }
}

/// The PNG's width, height and pixels as RGB (8-bit RGB or RGBA, not interlaced: what Chromium writes).
fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<[u8; 3]>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let (mut at, mut idat) = (8, Vec::new());
    let (mut width, mut height, mut channels) = (0, 0, 0);
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "8-bit samples");
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    t => panic!("colour type {t}"),
                };
                assert_eq!(data[12], 0, "not interlaced");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = width * channels;
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::with_capacity(width * height);
    for row in raw.chunks(stride + 1).take(height) {
        let (filter, line) = (row[0], &row[1..]);
        let mut cur = vec![0u8; stride];
        for i in 0..stride {
            let a = if i >= channels { cur[i - channels] } else { 0 };
            let (b, c) = (prev[i], if i >= channels { prev[i - channels] } else { 0 });
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => panic!("filter {f}"),
            };
            cur[i] = line[i].wrapping_add(predicted);
        }
        pixels.extend(cur.chunks(channels).map(|p| [p[0], p[1], p[2]]));
        prev = cur;
    }
    (width, height, pixels)
}

/// The browser to render with: `SUDOKU_CHROMIUM`, else `chromium` or `chromium-browser` on `PATH`.
fn chromium() -> Option<String> {
    if let Ok(c) = std::env::var("SUDOKU_CHROMIUM") {
        return Some(c);
    }
    ["chromium", "chromium-browser"]
        .into_iter()
        .map(String::from)
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn chromium_renders_the_page_with_its_drawings() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED chromium_renders_the_page_with_its_drawings: no chromium on PATH (CI installs Debian's)");
        return;
    };
    let dir = tempdir();
    let page = dir.path().join("page.html");
    let puzzle = &puzzle_lines(&read_data("se_sample_hard.txt"))[2][..81];
    let r = run(&[
        "explain",
        "--scale",
        "se",
        "--html",
        page.to_str().unwrap(),
        puzzle,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let shot = dir.path().join("shot.png");
    let (w, h) = (1000, 700);
    let out = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            &format!("--window-size={w},{h}"),
            &format!("--screenshot={}", shot.display()),
        ])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(shot.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    let (width, height, pixels) = decode_png(&std::fs::read(&shot).unwrap());
    assert_eq!((width, height), (w, h));
    let near = |p: &[u8; 3], q: [u8; 3]| p.iter().zip(q).all(|(&a, b)| a.abs_diff(b) <= 6);
    // The drawings' colours are counted below the legend, which shows them too (the legend, the heading and
    // the rating take the top 200 pixels; the first two drawings reach down to the bottom of the window).
    let below = &pixels[280 * width..];
    let count = |q: [u8; 3]| below.iter().filter(|p| near(p, q)).count();
    let white = count([255, 255, 255]);
    let ink = pixels.iter().filter(|p| p.iter().all(|&v| v < 90)).count();
    // Mostly white, with the grid lines and digits in dark ink.
    assert!(white > below.len() / 2, "white {white} of {}", below.len());
    assert!(ink > pixels.len() / 100, "ink {ink}");
    // The first step (a hidden single) fills its house and its placement; the second (pointing) its cells and
    // removal circles: each colour of the drawings covers a visible area.
    for (name, colour) in [
        ("house", [0xe8, 0xf0, 0xff]),
        ("placement", [0xbd, 0xf0, 0xb8]),
        ("pattern", [0xff, 0xf1, 0xa8]),
        ("removal", [0xff, 0xc2, 0xc2]),
    ] {
        assert!(count(colour) > 100, "{name}: {} pixels", count(colour));
    }
}
