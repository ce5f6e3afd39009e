//! The finders of the basic techniques, shared by both ladders (the levels' `techniques` and Sudoku Explainer's
//! `se`): singles, locked candidates (pointing and claiming), naked and hidden subsets, fish and XY/XYZ-Wings. A
//! finder scans a candidate grid in the order its scan parameter gives and hands each pattern it finds, as plain
//! data (houses, cells, digits, what would go), to its caller, who turns it into the ladder's step; each ladder
//! keeps its own order, its own filters and its own types, so the steps (hence paths, ratings and explanations)
//! are those the two ladders took before they shared the finders.
//!
//! What the ladders asked of each family, and how a finder's parameters express it:
//!
//! | family | levels (`techniques`) | SE (`se`) |
//! |---|---|---|
//! | naked single | lowest cell with one candidate | the same |
//! | hidden single | boxes, rows, columns; digits ascending | houses with one empty cell first (1.0), then the others (1.2 box, 1.5 line), each pass boxes, columns, rows |
//! | pointing | boxes; digits inside; the row, then the column; one place is enough | (box, column) then (box, row) sweeps; digits outside, boxes inside; two places or more |
//! | claiming | rows, then columns; digits inside; one place is enough | (column, box) then (row, box) sweeps, digits outside; two places or more; one producer with pointing |
//! | direct pointing/claiming | none | the same scan as SE's pointing/claiming; kept when the removal leaves the digit one place in another house of the first kind (a placement) |
//! | naked/hidden subsets | rows, columns, boxes; combinations in lexicographic order | boxes, columns, rows, houses with at least `2k` empty cells (naked) or more than `2k` (hidden; more than `k` for the direct hidden pair/triplet); combinations in increasing mask order (colexicographic) |
//! | fish | digits outside; rows as base, then columns; line combinations lexicographic | columns as base, then rows; line combinations outside (increasing mask order), digits inside; digits placed at most `9 - 2n` times |
//! | XY/XYZ-Wing | pivots ascending, pincer pairs ascending | the same (SE's pincer loops reach the same first pair) |
//!
//! Both ladders keep the first pattern their scan finds that removes something (the direct SE techniques: that
//! places something) and return one step: ours a [`Step`](super::step::Step) (technique, `Finding`,
//! eliminations, placement), SE's an `SeStep` with its rating and the pattern's houses, cells and digits.
//!
//! The third copy, SE's level-1 "advanced" rules inside dynamic chains (`se/chain/advanced.rs`: pointing/claiming,
//! hidden and naked pairs, X-Wings), is not a client: it works on a chain's working grid (`Working` masks, not
//! [`Candidates`](super::candidates::Candidates)), keeps every hint of the first rule with any (not the first hint), adds to each the chain's
//! eliminations it rests on, and looks only in the houses and digits where the chain removed candidates, which is
//! where it spends its time.

mod cover;
mod fish;
mod intersections;
mod singles;
mod subsets;
mod wings;

pub(crate) use cover::Order;
pub(crate) use fish::{first_fish, FishScan};
pub(crate) use intersections::{locked, Locked, LockedScan, Sweep};
pub(crate) use singles::{hidden_single, naked_single};
pub(crate) use subsets::{subset, Subset, Subsets};
pub(crate) use wings::first_wing;

use super::house::House;

/// The 27 houses in the order boxes, rows, columns (the levels' hidden singles).
pub(crate) const BOXES_ROWS_COLS: [House; 27] = houses([18, 0, 9]);

/// The 27 houses in the order boxes, columns, rows (SE's singles and subsets).
pub(crate) const BOXES_COLS_ROWS: [House; 27] = houses([18, 9, 0]);

/// The 27 houses, nine of each kind, kinds in the order of their first index.
const fn houses(firsts: [u8; 3]) -> [House; 27] {
    let mut t = [House(0); 27];
    let mut i = 0;
    while i < 27 {
        t[i] = House(firsts[i / 9] + (i % 9) as u8);
        i += 1;
    }
    t
}
