//! Simple colouring on one digit: cells joined by strong links (houses where the digit has exactly two places)
//! take alternating colours, and exactly one colour of each cluster holds the digit. Two cells of one colour
//! seeing each other rule that colour out (colour wrap); a cell seeing both colours cannot hold the digit
//! (colour trap).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House, PEERS};
use super::super::step::{Finding, Step};
use super::super::technique::Technique;

/// Digits 1..9; clusters from their lowest cell; wrap before trap.
pub(super) fn simple_coloring(c: &Candidates) -> Option<Step> {
    for digit in 1..=9u8 {
        let places = c.places(digit);
        // Strong-link neighbours of each cell.
        let mut links = [CellSet::EMPTY; 81];
        for house in House::all() {
            if let Some([a, b]) = super::links::link(c, digit, house) {
                links[a].insert(b);
                links[b].insert(a);
            }
        }
        let mut seen = CellSet::EMPTY;
        for start in places.iter() {
            if seen.contains(start) || links[start].is_empty() {
                continue;
            }
            let colors = cluster(&links, start);
            seen |= colors[0] | colors[1];
            if let Some(step) = wrap_or_trap(places, digit, colors) {
                return Some(step);
            }
        }
    }
    None
}

/// The two colours of the cluster holding `start` (`start` gets the first).
fn cluster(links: &[CellSet; 81], start: usize) -> [CellSet; 2] {
    let mut colors = [CellSet::single(start), CellSet::EMPTY];
    let mut frontier = colors[0];
    let mut side = 0;
    while !frontier.is_empty() {
        let next =
            frontier.iter().fold(CellSet::EMPTY, |s, x| s | links[x]) & !(colors[0] | colors[1]);
        side ^= 1;
        colors[side] |= next;
        frontier = next;
    }
    colors
}

fn wrap_or_trap(places: CellSet, digit: u8, colors: [CellSet; 2]) -> Option<Step> {
    let pattern = Finding::Coloring { digit, colors };
    for color in colors {
        if color.iter().any(|x| !(PEERS[x] & color).is_empty()) {
            return Some(Step::removing(
                Technique::SimpleColoring,
                pattern,
                color,
                digit,
            ));
        }
    }
    let sees = |s: CellSet| s.iter().fold(CellSet::EMPTY, |a, x| a | PEERS[x]);
    let gone = places & sees(colors[0]) & sees(colors[1]) & !(colors[0] | colors[1]);
    (!gone.is_empty()).then(|| Step::removing(Technique::SimpleColoring, pattern, gone, digit))
}
