//! A hint of SE's chains as SE ranks it and as a nesting chain takes it: the length increment of its rating, SE's
//! stable order of hints (rating as Java doubles, complexity, sort key), the order a Java `HashMap` gives its
//! eliminations, and what a nested producer hands a dynamic chain ([`NestedHint`]).

use crate::human::house::DigitSet;

/// A hint a nested producer found on a dynamic chain's working grid (SE's nesting levels 2 to 4).
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct NestedHint {
    /// SE's complexity: the potentials of the chain (of the cycle's "on" side).
    pub complexity: usize,
    /// The eliminations, cell by cell in Java `HashMap` order.
    pub removes: Vec<(u8, DigitSet)>,
    /// The "on" potentials of the chains with the cause of their link (SE's `getRuleParents` reads them):
    /// `(cell, digit, cause)`, cause [`NAKED`](super::potential::NAKED) or
    /// [`REGION`](super::potential::REGION) plus the house type.
    pub causes: Vec<(u8, u8, u8)>,
    /// The chains' potentials, target after target (`key * 2 + on`, `u16::MAX` between targets): two nested
    /// hints with the same are one chain for SE's complexity (SE's `FullChain`).
    pub identity: Vec<u16>,
}

/// SE's length increment of a chain of `complexity` potentials, as a Java double.
pub(super) fn length_difficulty(complexity: usize) -> f64 {
    let mut added = 0.0f64;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// SE's order of two hints with these `(rating, complexity, sort key)`: by rating (as doubles), then complexity,
/// then sort key.
fn se_order((ra, ca, sa): (f64, usize, u8), (rb, cb, sb): (f64, usize, u8)) -> std::cmp::Ordering {
    ra.partial_cmp(&rb)
        .expect("ratings are numbers")
        .then(ca.cmp(&cb))
        .then(sa.cmp(&sb))
}

/// Sorts hints as SE does: stably by rating (as doubles), complexity and sort key.
pub(super) fn sort<T>(hints: &mut [T], keys: impl Fn(&T) -> (f64, usize, u8)) {
    hints.sort_by(|a, b| se_order(keys(a), keys(b)));
}

/// The first hint of SE's stable sort by rating (as doubles), complexity and sort key.
pub(super) fn first<T>(hints: &[T], keys: impl Fn(&T) -> (f64, usize, u8)) -> Option<&T> {
    hints
        .iter()
        .enumerate()
        .min_by(|(i, a), (j, b)| se_order(keys(a), keys(b)).then(i.cmp(j)))
        .map(|(_, h)| h)
}

/// Orders cells as a Java `HashMap<Cell, _>` filled in this order iterates them: by `index & (capacity - 1)`
/// (capacity 16, doubled past three quarters full), stably.
pub(super) fn hash_order(cells: &mut [(u8, DigitSet)]) {
    let mut cap = 16;
    while cells.len() * 4 > cap * 3 {
        cap *= 2;
    }
    cells.sort_by_key(|&(cell, _)| cell as usize & (cap - 1));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eliminations_come_in_java_hash_map_order() {
        let d = DigitSet::single(1);
        // Capacity 16: by index modulo 16, ties in insertion order.
        let mut cells: Vec<(u8, DigitSet)> = [20u8, 4, 36, 17, 1].iter().map(|&c| (c, d)).collect();
        hash_order(&mut cells);
        let order: Vec<u8> = cells.iter().map(|c| c.0).collect();
        assert_eq!(order, [17, 1, 20, 4, 36]);
        // Thirteen cells: capacity 32.
        let mut cells: Vec<(u8, DigitSet)> = (0..13u8).map(|i| (40 - i, d)).collect();
        hash_order(&mut cells);
        let order: Vec<u8> = cells.iter().map(|c| c.0).collect();
        assert_eq!(order, [32, 33, 34, 35, 36, 37, 38, 39, 40, 28, 29, 30, 31]);
    }
}
