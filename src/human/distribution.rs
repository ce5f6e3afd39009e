//! The rating distribution of a run for machines and for the eye: both histograms as JSON
//! ([`Histogram::to_json`], [`SeHistogram::to_json`]) and as bars ([`Distribution`]: levels, or ER bands), drawn
//! as a self-contained SVG bar chart ([`Distribution::to_svg`]).

use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::rating::Histogram;
use super::se::{SeHistogram, Tenths, LADDER_TOP};
use super::technique::{Level, Technique};

/// A histogram as bars, left to right, for a chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    /// What the bars are: the chart's x-axis title (`level`, or `ER (Sudoku Explainer rating)`).
    pub axis: &'static str,
    /// The bars: a label and a number of puzzles.
    pub bars: Vec<(String, u64)>,
    /// Records that could not be rated (not a bar; the chart's title says how many).
    pub failed: u64,
}

impl Histogram {
    /// The counts for machines, one JSON object: `{"scale":"levels","rated":N,"failed":F,"levels":{LEVEL:N,...},
    /// "hardest":{TECHNIQUE:N,...},"guessed":N,"full":N,"mean_score":X}`, every level and technique named,
    /// `hardest` counting the puzzles solved without a guess by their hardest technique.
    pub fn to_json(&self) -> String {
        let levels: Map<String, Value> = Level::ALL
            .iter()
            .map(|&l| (l.name().to_string(), self.levels[l as usize].into()))
            .collect();
        let hardest: Map<String, Value> = Technique::ALL
            .iter()
            .map(|&t| (t.name().to_string(), self.hardest[t.index()].into()))
            .collect();
        let mean = self.score_sum as f64 / self.rated().max(1) as f64;
        json!({
            "scale": "levels",
            "rated": self.rated(),
            "failed": self.failed,
            "levels": levels,
            "hardest": hardest,
            "guessed": self.guessed,
            "full": self.full,
            "mean_score": (mean * 10.0).round() / 10.0,
        })
        .to_string()
    }

    /// One bar per level, easiest first.
    pub fn distribution(&self) -> Distribution {
        Distribution {
            axis: "level",
            bars: Level::ALL
                .iter()
                .map(|&l| (l.name().to_string(), self.levels[l as usize]))
                .collect(),
            failed: self.failed,
        }
    }
}

impl SeHistogram {
    /// What the ratings above the ladder are above.
    fn top(&self) -> Tenths {
        if self.ceiling == Tenths(0) {
            LADDER_TOP
        } else {
            self.ceiling
        }
    }

    /// The name of band `i` (as the text histogram names it): `full grid`, `1.0-1.9`, ..., `11.0 and up`,
    /// `above 10.5`.
    fn band_name(&self, i: usize) -> String {
        match i {
            0 => "full grid".to_string(),
            11 => "11.0 and up".to_string(),
            12 => format!("above {}", self.top()),
            _ => format!("{i}.0-{i}.9"),
        }
    }

    /// The counts for machines, one JSON object: `{"scale":"se","rated":N,"failed":F,"above":X,"er":{BAND:N,...}}`
    /// with every band named as the text histogram names it (`full grid`, `1.0-1.9`, ..., `11.0 and up`, and
    /// `above X` for the puzzles rated above the ladder, or above `--max-se`, X).
    pub fn to_json(&self) -> String {
        let bands: Map<String, Value> = (0..SeHistogram::BANDS)
            .map(|i| (self.band_name(i), self.bands[i].into()))
            .collect();
        json!({
            "scale": "se",
            "rated": self.rated(),
            "failed": self.failed,
            "above": self.top().value(),
            "er": bands,
        })
        .to_string()
    }

    /// One bar per ER band from 1.0-1.9 to 11.0 and up; the full grids before them and the puzzles above the
    /// ladder after them, when there are any.
    pub fn distribution(&self) -> Distribution {
        let shown = |i: usize| (1..=11).contains(&i) || self.bands[i] > 0;
        Distribution {
            axis: "ER (Sudoku Explainer rating)",
            bars: (0..SeHistogram::BANDS)
                .filter(|&i| shown(i))
                .map(|i| (self.band_name(i), self.bands[i]))
                .collect(),
            failed: self.failed,
        }
    }
}

/// The chart's geometry, in pixels.
const PLOT_HEIGHT: u32 = 320;
const LEFT: u32 = 80;
const RIGHT: u32 = 24;
const TOP: u32 = 56;
const BOTTOM: u32 = 64;
const MIN_SLOT: u32 = 76;
const MIN_PLOT_WIDTH: u32 = 420;

/// The step between the y axis's ticks: 1, 2 or 5 times a power of ten, the smallest giving at most five steps
/// up to `max`.
fn tick_step(max: u64) -> u64 {
    let mut power = 1u64;
    loop {
        for m in [1, 2, 5] {
            let step = m * power;
            if max.div_ceil(step) <= 5 {
                return step;
            }
        }
        power = power.saturating_mul(10);
    }
}

/// `text` with `&`, `<`, `>` and `"` escaped for XML.
pub(super) fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Distribution {
    /// Puzzles in the bars.
    pub fn total(&self) -> u64 {
        self.bars.iter().map(|(_, n)| n).sum()
    }

    /// A bar chart of the distribution as a self-contained SVG document (no script, no external reference): a
    /// title, a y axis of puzzles with ticks and grid lines, one bar per label with its count above it (`class`
    /// `bar` and `count`, the label under it, `class` `label`), and the axis titles. Bar heights are proportional
    /// to the counts, the y axis starting at 0.
    pub fn to_svg(&self) -> String {
        let n = self.bars.len().max(1) as u32;
        let slot = MIN_SLOT.max(MIN_PLOT_WIDTH.div_ceil(n));
        let max = self.bars.iter().map(|&(_, c)| c).max().unwrap_or(0).max(1);
        let step = tick_step(max);
        let chart = Chart {
            slot,
            plot_width: slot * n,
            base: TOP + PLOT_HEIGHT,
            step,
            y_max: max.div_ceil(step) * step,
        };
        let (width, height) = (LEFT + chart.plot_width + RIGHT, TOP + PLOT_HEIGHT + BOTTOM);
        let mut s = String::new();
        let w = &mut s;
        let failed = match self.failed {
            0 => String::new(),
            1 => ", 1 record not rated".to_string(),
            f => format!(", {f} records not rated"),
        };
        let title = format!(
            "Ratings of {} puzzles by {}{failed}",
            self.total(),
            self.axis
        );
        // Writing to a String cannot fail.
        let _ = writeln!(
            w,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Arial, sans-serif\">"
        );
        let _ = writeln!(w, "<title>{}</title>", xml(&title));
        let _ = writeln!(
            w,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
        );
        let _ = writeln!(
            w,
            "<text class=\"title\" x=\"{}\" y=\"30\" text-anchor=\"middle\" font-size=\"17\" \
             font-weight=\"bold\">{}</text>",
            width / 2,
            xml(&title)
        );
        chart.y_axis(w);
        for (i, (label, count)) in self.bars.iter().enumerate() {
            chart.bar(w, i as u32, label, *count);
        }
        chart.axes(w, self.axis);
        s.push_str("</svg>\n");
        s
    }
}

/// The geometry of [`Distribution::to_svg`]'s chart: the width of a bar's slot and of the plot, the y of the x
/// axis, and the y axis's tick step and top.
struct Chart {
    slot: u32,
    plot_width: u32,
    base: u32,
    step: u64,
    y_max: u64,
}

impl Chart {
    /// The y of a count.
    fn y_of(&self, count: u64) -> f64 {
        self.base as f64 - count as f64 * f64::from(PLOT_HEIGHT) / self.y_max as f64
    }

    /// The y axis: ticks, their grid lines and labels, the title.
    fn y_axis(&self, w: &mut String) {
        let mut tick = 0;
        while tick <= self.y_max {
            let y = self.y_of(tick);
            let _ = writeln!(
                w,
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>",
                LEFT + self.plot_width
            );
            let _ = writeln!(
                w,
                "<text class=\"tick\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"12\" \
                 fill=\"#444444\">{tick}</text>",
                LEFT - 8,
                y + 4.0
            );
            tick += self.step;
        }
        let _ = writeln!(
            w,
            "<text class=\"axis\" transform=\"translate(22 {}) rotate(-90)\" text-anchor=\"middle\" \
             font-size=\"14\">puzzles</text>",
            TOP + PLOT_HEIGHT / 2
        );
    }

    /// Bar `i`: its rectangle, its count above it and its label under it.
    fn bar(&self, w: &mut String, i: u32, label: &str, count: u64) {
        let x = LEFT + self.slot * i;
        let bar_width = self.slot * 7 / 10;
        let left = f64::from(x) + f64::from(self.slot - bar_width) / 2.0;
        let top = self.y_of(count);
        let middle = x + self.slot / 2;
        let _ = writeln!(
            w,
            "<rect class=\"bar\" x=\"{left:.1}\" y=\"{top:.1}\" width=\"{bar_width}\" height=\"{:.1}\" \
             fill=\"#4c78a8\"><title>{}: {count}</title></rect>",
            f64::from(self.base) - top,
            xml(label)
        );
        let _ = writeln!(
            w,
            "<text class=\"count\" x=\"{middle}\" y=\"{:.1}\" text-anchor=\"middle\" \
             font-size=\"12\">{count}</text>",
            top - 5.0
        );
        let _ = writeln!(
            w,
            "<text class=\"label\" x=\"{middle}\" y=\"{}\" text-anchor=\"middle\" \
             font-size=\"12\">{}</text>",
            self.base + 20,
            xml(label)
        );
    }

    /// The axes over the grid lines, then the x axis's title.
    fn axes(&self, w: &mut String, title: &str) {
        let base = self.base;
        let _ = writeln!(
            w,
            "<line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#000000\"/>",
            LEFT + self.plot_width
        );
        let _ = writeln!(
            w,
            "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{base}\" stroke=\"#000000\"/>"
        );
        let _ = writeln!(
            w,
            "<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
            LEFT + self.plot_width / 2,
            base + 48,
            xml(title)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each element `<NAME class="CLASS" ...>TEXT` of the SVG text: its attributes and the text after it.
    fn elements<'a>(
        svg: &'a str,
        name: &str,
        class: &str,
    ) -> Vec<(Vec<(&'a str, &'a str)>, &'a str)> {
        let open = format!("<{name} class=\"{class}\"");
        let mut found = Vec::new();
        let mut rest = svg;
        while let Some(at) = rest.find(&open) {
            let tail = &rest[at + 1 + name.len()..];
            let end = tail.find('>').unwrap();
            let attrs = tail[..end]
                .split('"')
                .collect::<Vec<_>>()
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| (c[0].trim().trim_end_matches('='), c[1]))
                .collect();
            let text = &tail[end + 1..];
            found.push((attrs, &text[..text.find('<').unwrap()]));
            rest = &tail[end..];
        }
        found
    }

    fn attr(attrs: &[(&str, &str)], key: &str) -> f64 {
        attrs
            .iter()
            .find(|(k, _)| *k == key)
            .unwrap()
            .1
            .parse()
            .unwrap()
    }

    /// Every tag opened is closed, in order (self-closing tags aside).
    fn balanced(svg: &str) -> bool {
        let mut open: Vec<&str> = Vec::new();
        for tag in svg.split('<').skip(1) {
            let tag = &tag[..tag.find('>').unwrap()];
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop() != Some(name) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap());
            }
        }
        open.is_empty()
    }

    /// The bars of a chart: label, count shown above it, and its height and bottom edge.
    fn check_chart(d: &Distribution) {
        let svg = d.to_svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(balanced(&svg), "{svg}");
        assert!(!svg.contains("<script") && !svg.contains("href"));
        let bars = elements(&svg, "rect", "bar");
        let counts = elements(&svg, "text", "count");
        let labels = elements(&svg, "text", "label");
        assert_eq!(bars.len(), d.bars.len());
        assert_eq!(counts.len(), d.bars.len());
        let shown: Vec<&str> = labels.iter().map(|(_, t)| *t).collect();
        let want: Vec<&str> = d.bars.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(shown, want);
        let max = d.bars.iter().map(|b| b.1).max().unwrap();
        let tallest = bars
            .iter()
            .map(|(a, _)| attr(a, "height"))
            .fold(0.0, f64::max);
        assert!(tallest > 0.0 && tallest <= f64::from(PLOT_HEIGHT));
        for (((bar, _), (_, count)), (_, n)) in bars.iter().zip(&counts).zip(&d.bars) {
            assert_eq!(count.parse::<u64>().unwrap(), *n);
            let h = attr(bar, "height");
            // Heights proportional to the counts (to the 0.1 pixel they are written with), from one baseline.
            assert!(
                (h - tallest * *n as f64 / max as f64).abs() < 0.11,
                "{h} {n}"
            );
            assert!((attr(bar, "y") + h - f64::from(TOP + PLOT_HEIGHT)).abs() < 0.11);
        }
        assert!(svg.contains(&format!(">{}</text>", d.axis)));
    }

    #[test]
    fn level_histograms_become_json_and_a_chart() {
        let h = Histogram {
            levels: [3, 0, 12, 7],
            guessed: 2,
            failed: 1,
            score_sum: 220,
            ..Histogram::default()
        };
        let v: Value = serde_json::from_str(&h.to_json()).unwrap();
        assert_eq!(v["scale"], "levels");
        assert_eq!(v["rated"], 22);
        assert_eq!(v["levels"]["intermediate"], 12);
        assert_eq!(v["levels"]["easy"], 0);
        assert_eq!(
            v["hardest"].as_object().unwrap().len(),
            Technique::ALL.len()
        );
        assert_eq!(v["mean_score"], 10.0);
        let d = h.distribution();
        assert_eq!(d.total(), 22);
        check_chart(&d);
        assert!(d
            .to_svg()
            .contains("Ratings of 22 puzzles by level, 1 record not rated"));
    }

    #[test]
    fn se_histograms_become_json_and_a_chart() {
        let mut h = SeHistogram::default();
        h.bands[1] = 40;
        h.bands[2] = 377;
        h.bands[7] = 9;
        h.bands[12] = 2;
        let v: Value = serde_json::from_str(&h.to_json()).unwrap();
        assert_eq!(v["scale"], "se");
        assert_eq!(v["rated"], 428);
        assert_eq!(v["above"], 10.5);
        let er = v["er"].as_object().unwrap();
        assert_eq!(er.len(), SeHistogram::BANDS);
        assert_eq!(er["2.0-2.9"], 377);
        assert_eq!(er["above 10.5"], 2);
        let d = h.distribution();
        // 1.0-1.9 to 11.0 and up, then the puzzles above the ladder; no full grid.
        assert_eq!(d.bars.len(), 12);
        assert_eq!(d.bars[0], ("1.0-1.9".to_string(), 40));
        assert_eq!(d.bars[11], ("above 10.5".to_string(), 2));
        check_chart(&d);
        h.ceiling = Tenths(84);
        assert_eq!(h.distribution().bars[11].0, "above 8.4");
    }

    #[test]
    fn ticks_are_round_and_few() {
        for (max, step) in [
            (1, 1),
            (5, 1),
            (6, 2),
            (10, 2),
            (11, 5),
            (377, 100),
            (1000, 200),
        ] {
            assert_eq!(tick_step(max), step, "{max}");
        }
    }
}
