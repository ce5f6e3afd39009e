//! The working grids of a dynamic chain where SE's Multiple Forcing Chains can give no hint resting on the chain's
//! eliminations ([`may_rest`]): there the nested producer of level 3 ([`super::multiple`]) need not run.
//!
//! Nested in a dynamic chain, a hint counts only when it rests on the chain's eliminations ([`super::nested`]
//! reads SE's `getRuleParents`): when one of the "on" potentials of its chains has a cause the chain changed. An
//! assumption's cause is its cell (a Cell Forcing Chain, the cell has three candidates or more) or its house (a
//! Region Forcing Chain, the digit has two places or more there, the first with three candidates or more); any
//! other "on" potential comes through a link from "off" to "on", whose cause is the cell when it has two
//! candidates, or the house when the digit has two places there. So a hint rests only when its cell or house lost
//! candidates or places of the digit, or when a cell of two candidates or a house of two places of a digit lost
//! some. Where none of the latter lost any, and no changed cell or house is one whose assumptions' footprints
//! meet (the producer's hints come from those only), no hint rests.

use super::closure::Changed;
use super::footprint::Footprints;
use super::working::Working;
use crate::human::house::{DigitSet, House};
use crate::human::se::{cells_of, count9, exactly_two};

/// Whether a hint of SE's Multiple Forcing Chains on the chain's working grid `now` may rest on the chain's
/// eliminations (see the module's comment), `changed` the cells and houses that lost some and keep two or more
/// ([`super::nested`]'s groups): false proves none does.
pub(super) fn may_rest(now: &Working, changed: &Changed) -> bool {
    // A link from "off" to "on" the chain changed: a cell of two candidates, or two places of a digit in a house.
    if changed.cells.iter().any(|cell| count9(now.mask[cell]) == 2) {
        return true;
    }
    // The houses where a digit lost places and keeps two or more: `(digit, places left there)`.
    let houses = (0..9).flat_map(|di| {
        let mut rest = changed.houses[di];
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let h = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                (di as u8 + 1, now.places[di] & cells_of(House(h)))
            })
        })
    });
    if houses.clone().any(|(_, here)| exactly_two(here)) {
        return true;
    }
    // The assumptions that rest themselves: a changed cell's candidates, a digit's places in a changed house.
    let mut prints = Footprints::new(now);
    let mut assumed = Vec::new();
    let mut cells = changed
        .cells
        .iter()
        .filter(|&cell| count9(now.mask[cell]) >= 3);
    let mut met = cells.any(|cell| {
        assumed.clear();
        assumed.extend(DigitSet(now.mask[cell]).iter().map(|d| (cell as u8, d)));
        prints.meet(&assumed)
    });
    met = met
        || houses.into_iter().any(|(d, here)| {
            // A house's places are assumed when the first has three candidates or more.
            let first = here.0.trailing_zeros() as usize;
            if count9(now.mask[first]) < 3 {
                return false;
            }
            assumed.clear();
            assumed.extend(here.iter().map(|x| (x as u8, d)));
            prints.meet(&assumed)
        });
    prints.keep();
    met
}

#[cfg(test)]
mod tests {
    use super::super::advanced::{self, gone_places, Grids};
    use super::super::multiple::nested_hints;
    use super::super::nested::{self, rule_parents};
    use super::super::samples::{working_grids, Xorshift};
    use super::*;

    #[test]
    fn a_grid_the_gate_rules_out_gives_no_resting_hint() {
        // A working grid where a chain starts, and the same less a few candidates at random (what the chain
        // removed); the producer's hints that rest on those, against the gate's verdict.
        let mut random = Xorshift::new(0x2545_F491_4F6C_DD1D);
        let (mut skipped, mut resting, mut passed) = (0, 0, 0);
        for (i, source) in working_grids(500, 7).into_iter().enumerate() {
            let mut now = source;
            for _ in 0..1 + i % 5 {
                let cell = random.next() as usize % 81;
                let cand = DigitSet(now.mask[cell]);
                if cand.len() > 1 {
                    let pick = cand
                        .iter()
                        .nth(random.next() as usize % cand.len() as usize);
                    now.remove(cell, pick.expect("a candidate"));
                }
            }
            // The gate and the hints' causes read the candidates only.
            let g = Grids::of_candidates(&source, &now);
            let mut parents = Vec::new();
            let rest = nested_hints(&now)
                .iter()
                .filter(|h| {
                    rule_parents(&g, h, &mut parents);
                    !parents.is_empty()
                })
                .count();
            let gone = gone_places(&g);
            let may = may_rest(
                &now,
                &nested::resting(&g, &gone, advanced::lost_houses(&g, &gone)),
            );
            assert!(may || rest == 0, "grid {i}: a resting hint ruled out");
            skipped += usize::from(!may);
            resting += usize::from(rest > 0);
            passed += usize::from(may && rest == 0);
        }
        // Every verdict was met, many times.
        assert!(
            skipped > 50 && resting > 50 && passed > 10,
            "{skipped} skipped, {resting} resting, {passed} passed"
        );
    }
}
