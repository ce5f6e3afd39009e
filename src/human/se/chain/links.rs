//! SE's links between the potentials of a static chain (one that leaves the grid as it is): from "on" to "off"
//! (the cell's other digits, the digit's other places in the cell's box, row and column) and from "off" to "on"
//! (the cell's other digit when it has two, the digit's last other place in a house), and the search that holds
//! the potentials they imply ([`Search`]), shared by the forcing chains and cycles, their reachability and the
//! multiple forcing chains; and the same links as per-grid tables of cell sets ([`Tables`]), for the searches that
//! follow sets of potentials at once (reachability, footprints).

use super::potential::{key, Node, NAKED, NONE, REGION};
use super::set::Set729;
use super::working::{Working, CELL_BIT};
use crate::human::house::{CellSet, House, PEERS};
use crate::human::se::{cells_of, count9, exactly_two, house_of};

/// The potentials of a static search on `c` and SE's links between them (also [`super::multiple`]'s and [`super::forcing`]'s).
pub(super) struct Search<'a> {
    pub c: &'a Working,
    pub nodes: Vec<Node>,
    /// Reused from search to search: the "on" potentials pending and those pending next, and the implications of one.
    pub scratch: (Vec<u32>, Vec<u32>, Vec<u32>),
    /// The X links, looked up rather than counted at each step: `last[key][t]` is the digit's only place in the
    /// house of type `t` of the cell other than the cell itself, or [`NO_CELL`] (729 entries, by key).
    pub last: Vec<[u8; 3]>,
    /// The places of each digit that its entries of `last` were written for ([`update_last`]).
    last_of: [CellSet; 9],
    /// For each digit (index `digit - 1`), its places with an entry in `last` (an X link from "off" to "on").
    pub linked: [CellSet; 9],
    /// The cells of two candidates (a Y link from "off" to "on").
    pub bivalued: CellSet,
}

/// The buffers of a [`Search`], kept by the thread from search to search: `nodes` and `scratch` keep their
/// capacity, and `last` the entries of the digits whose places are those of the search before ([`update_last`]).
struct Kept {
    nodes: Vec<Node>,
    scratch: (Vec<u32>, Vec<u32>, Vec<u32>),
    last: Vec<[u8; 3]>,
    last_of: [CellSet; 9],
    linked: [CellSet; 9],
}

thread_local! {
    /// The buffers of the thread's last search, lent to one search at a time (a search made while they are lent
    /// gets new ones).
    static KEPT: std::cell::Cell<Option<Kept>> = const { std::cell::Cell::new(None) };
}

/// No cell, in [`Search::last`].
pub(super) const NO_CELL: u8 = u8::MAX;

/// Makes `last`, a table of [`Search::last`] whose entries of each digit `d + 1` were written for the places
/// `of[d]` (and are [`NO_CELL`] elsewhere), the table of the candidates `c`, and `linked` its places with an entry
/// ([`Search::linked`]): the entries of the digits whose places changed are cleared at their former places and
/// written again. A digit's entries depend on its places alone.
fn update_last(
    last: &mut [[u8; 3]],
    of: &mut [CellSet; 9],
    linked: &mut [CellSet; 9],
    c: &Working,
) {
    for d in 1..=9u8 {
        let places = c.places(d);
        let was = &mut of[d as usize - 1];
        if *was == places {
            continue;
        }
        for cell in was.iter() {
            last[key(cell as u8, d)] = [NO_CELL; 3];
        }
        *was = places;
        let linked = &mut linked[d as usize - 1];
        *linked = CellSet::EMPTY;
        // House types in `house_of`'s order: box, row, column.
        for (t, first) in [18u8, 0, 9].into_iter().enumerate() {
            for h in 0..9 {
                let two = places & cells_of(House(first + h));
                if exactly_two(two) {
                    let a = two.first().expect("two cells");
                    let b = (two.0 & (two.0 - 1)).trailing_zeros() as usize;
                    last[key(a as u8, d)][t] = b as u8;
                    last[key(b as u8, d)][t] = a as u8;
                    *linked |= two;
                }
            }
        }
    }
}

impl Drop for Search<'_> {
    /// Gives the buffers back to the thread.
    fn drop(&mut self) {
        KEPT.set(Some(Kept {
            nodes: std::mem::take(&mut self.nodes),
            scratch: std::mem::take(&mut self.scratch),
            last: std::mem::take(&mut self.last),
            last_of: self.last_of,
            linked: self.linked,
        }));
    }
}

/// SE's links of a working grid as cell sets, digit by digit (index `digit - 1`): written for the places of each
/// digit only (no other entry is read).
pub(super) struct Tables {
    /// `conj[d][cell]`: the cells whose "on" potential of digit `d + 1` its "off" potential in `cell` turns on by
    /// an X link (the digit's last other place in a house of `cell`).
    pub conj: Conjugates,
    /// `xrow[d][cell]`: the union of `conj[d]` over the digit's places among the peers of `cell` (the "on"
    /// potentials of digit `d + 1` that its "on" potential in `cell` turns on by two X links); built again with
    /// the digit's rows of `conj`.
    pub xrow: Box<[[CellSet; 81]; 9]>,
    /// `bivalue[d][e]`: the cells of two candidates, digits `d + 1` and `e + 1`; `pairs[d]` the digits `e` (bit
    /// `e`) with any; `bivalued` every cell of two candidates.
    pub bivalue: [[CellSet; 9]; 9],
    pub pairs: [u16; 9],
    pub bivalued: CellSet,
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            conj: Conjugates::default(),
            xrow: Box::new([[CellSet::EMPTY; 81]; 9]),
            bivalue: [[CellSet::EMPTY; 9]; 9],
            pairs: [0; 9],
            bivalued: CellSet::EMPTY,
        }
    }
}

impl Tables {
    /// The tables of the working grid `c`. The X links' rows are built from the places with an X link (two
    /// places in a house): each adds its links to the row of each of its peers that holds the digit. The rows
    /// of a digit depend on its places alone: those of digits whose places are those of the last build are kept
    /// ([`Conjugates::update`]).
    pub(super) fn build(&mut self, c: &Working) {
        for (d, &linked) in self.conj.update(c).iter().enumerate() {
            let Some(linked) = linked else {
                continue;
            };
            let (places, conj, xrow) = (c.places[d], &self.conj[d], &mut self.xrow[d]);
            for cell in places.iter() {
                xrow[cell] = CellSet::EMPTY;
            }
            for x in linked.iter() {
                let to = conj[x];
                for cell in (PEERS[x] & places).iter() {
                    xrow[cell] |= to;
                }
            }
        }
        self.bivalue = [[CellSet::EMPTY; 9]; 9];
        self.pairs = [0; 9];
        self.bivalued = CellSet::EMPTY;
        for (cell, &m) in c.mask.iter().enumerate() {
            if count9(m) == 2 {
                self.bivalued.insert(cell);
                let (a, b) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
                self.bivalue[a][b].insert(cell);
                self.bivalue[b][a].insert(cell);
                self.pairs[a] |= 1 << b;
                self.pairs[b] |= 1 << a;
            }
        }
    }
}

/// SE's strong links in houses, digit by digit: `conj[d][cell]` (indexed as an array) holds the digit's last
/// other place in each house of `cell` where it has two ([`conjugates_of`]), written for the digit's places only.
/// A digit's row depends on its places alone, and the working grids met one after another mostly differ in a few
/// digits, so the rows are kept from grid to grid and only those of digits whose places changed are built again.
pub(super) struct Conjugates {
    rows: Box<[[CellSet; 81]; 9]>,
    /// The places each digit's row was last built for ([`UNBUILT`] before any).
    of: [CellSet; 9],
}

/// No places of a digit (it has bits past cell 80): a row built for these is not built yet.
const UNBUILT: CellSet = CellSet(u128::MAX);

impl Default for Conjugates {
    fn default() -> Conjugates {
        Conjugates {
            rows: Box::new([[CellSet::EMPTY; 81]; 9]),
            of: [UNBUILT; 9],
        }
    }
}

impl Conjugates {
    /// The rows of the working grid `c`; for each digit whose row was built again, its places with an X link.
    pub(super) fn update(&mut self, c: &Working) -> [Option<CellSet>; 9] {
        let mut linked = [None; 9];
        for (d, &places) in c.places.iter().enumerate() {
            if self.of[d] != places {
                self.of[d] = places;
                linked[d] = Some(conjugates_of(places, &mut self.rows[d]));
            }
        }
        linked
    }
}

impl std::ops::Index<usize> for Conjugates {
    type Output = [CellSet; 81];

    fn index(&self, d: usize) -> &[CellSet; 81] {
        &self.rows[d]
    }
}

/// The row of [`Conjugates`] of a digit of places `places`: writes it (all of it) and returns the places
/// with an X link (two places in some house). The houses are scanned a band of three rows at a time, as a word
/// of 27 bits (cell `27 * band + i` at bit `i`): its rows and boxes are masks of it, and each column's count over
/// the nine rows is kept bit-sliced (at least one, two, three places).
pub(super) fn conjugates_of(places: CellSet, conj: &mut [CellSet; 81]) -> CellSet {
    *conj = [CellSet::EMPTY; 81];
    let mut linked = CellSet::EMPTY;
    let mut link = |a: usize, b: usize| {
        conj[a].0 |= CELL_BIT[b];
        conj[b].0 |= CELL_BIT[a];
        linked.0 |= CELL_BIT[a] | CELL_BIT[b];
    };
    let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
    for band in 0..3 {
        let word = (places.0 >> (27 * band)) as u32 & BAND;
        let base = 27 * band;
        for row in 0..3 {
            let x = word & ROW_OF_BAND << (9 * row);
            if let Some((a, b)) = two_bits(x) {
                link(base + a, base + b);
            }
            let r = x >> (9 * row);
            three |= two & r;
            two |= one & r;
            one |= r;
        }
        for stack in 0..3 {
            if let Some((a, b)) = two_bits(word & BOX_OF_BAND << (3 * stack)) {
                link(base + a, base + b);
            }
        }
    }
    let mut columns = two & !three;
    while columns != 0 {
        let column = places & cells_of(House::col(columns.trailing_zeros() as usize));
        columns &= columns - 1;
        let a = column.0.trailing_zeros() as usize;
        let b = (column.0 & (column.0 - 1)).trailing_zeros() as usize;
        link(a, b);
    }
    linked
}

/// The cells of a band (three rows), of its first row and of its first box, in a band's word.
const BAND: u32 = (1 << 27) - 1;
const ROW_OF_BAND: u32 = 0x1FF;
const BOX_OF_BAND: u32 = 0x7 | 0x7 << 9 | 0x7 << 18;

/// The positions of the two bits of `x`, lowest first, when it has exactly two.
#[inline]
fn two_bits(x: u32) -> Option<(usize, usize)> {
    let rest = x & x.wrapping_sub(1);
    (rest != 0 && rest & (rest - 1) == 0)
        .then(|| (x.trailing_zeros() as usize, rest.trailing_zeros() as usize))
}

impl<'a> Search<'a> {
    /// A search on `c` with no potentials yet, on the thread's kept buffers when they are free.
    pub(super) fn new(c: &'a Working) -> Search<'a> {
        let kept = KEPT.take();
        let Kept {
            mut nodes,
            scratch,
            mut last,
            mut last_of,
            mut linked,
        } = kept.unwrap_or_else(|| Kept {
            nodes: Vec::with_capacity(4096),
            scratch: Default::default(),
            last: vec![[NO_CELL; 3]; 729],
            last_of: [CellSet::EMPTY; 9],
            linked: [CellSet::EMPTY; 9],
        });
        nodes.clear();
        update_last(&mut last, &mut last_of, &mut linked, c);
        let bivalued = c.bivalue();
        Search {
            c,
            nodes,
            scratch,
            last,
            last_of,
            linked,
            bivalued,
        }
    }

    /// For each digit index, the places whose "off" potential turns an "on" one on by the links of a pass with
    /// Y links when `y` ([`Search::bivalued`]) and X links when `x` ([`Search::linked`]).
    pub(super) fn live(&self, y: bool, x: bool) -> [CellSet; 9] {
        let y = if y { self.bivalued } else { CellSet::EMPTY };
        std::array::from_fn(|d| y | if x { self.linked[d] } else { CellSet::EMPTY })
    }

    pub(super) fn push(&mut self, cell: u8, digit: u8, on: bool, cause: u8, parent: u32) -> u32 {
        self.nodes.push(Node {
            cell,
            digit,
            on,
            cause,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The other digit of a bivalue `cell` than `digit` (a Y link), if the cell is bivalue.
    pub(super) fn partner(&self, cell: usize, digit: u8) -> Option<u8> {
        let mut other = self.c.get(cell);
        if count9(other.0) != 2 {
            return None;
        }
        other.remove(digit);
        other.first()
    }

    /// Pushes the potential implied by `p` (and lists it in `out`) when `keep` wants it: the caller drops the
    /// others unseen, so they need no node.
    #[inline]
    fn offer(
        &mut self,
        n: Node,
        out: &mut Vec<u32>,
        keep: &mut impl FnMut(&Search, &Node) -> bool,
    ) {
        if keep(self, &n) {
            self.nodes.push(n);
            out.push((self.nodes.len() - 1) as u32);
        }
    }

    /// SE's `getOnToOff`: the cell's other digits (with Y links), then the digit's other places in the box, row
    /// and column, each cell once; those `keep` wants.
    pub(super) fn on_to_off(
        &mut self,
        p: u32,
        y: bool,
        out: &mut Vec<u32>,
        mut keep: impl FnMut(&Search, &Node) -> bool,
    ) {
        out.clear();
        let n = self.nodes[p as usize];
        let cell = n.cell as usize;
        let implied =
            |cell: usize, digit: u8, cause: u8| Node::implied(p, cell, digit, false, cause);
        if y {
            for d in self.c.get(cell).iter().filter(|&d| d != n.digit) {
                self.offer(implied(cell, d, NAKED), out, &mut keep);
            }
        }
        let mut added = CellSet::single(cell);
        for t in 0..3 {
            let places = self.c.places(n.digit) & cells_of(house_of(t, cell)) & !added;
            for x in places.iter() {
                added.insert(x);
                self.offer(implied(x, n.digit, REGION + t as u8), out, &mut keep);
            }
        }
    }

    /// SE's `getOffToOn`: the cell's other digit when it has two (Y links), then the digit's only other place in
    /// the box, row or column (X links); those `keep` wants.
    pub(super) fn off_to_on(
        &mut self,
        p: u32,
        y: bool,
        x: bool,
        out: &mut Vec<u32>,
        mut keep: impl FnMut(&Search, &Node) -> bool,
    ) {
        out.clear();
        let n = self.nodes[p as usize];
        let cell = n.cell as usize;
        let implied =
            |cell: usize, digit: u8, cause: u8| Node::implied(p, cell, digit, true, cause);
        if y {
            if let Some(d) = self.partner(cell, n.digit) {
                self.offer(implied(cell, d, NAKED), out, &mut keep);
            }
        }
        if x {
            let last = self.last[key(n.cell, n.digit)];
            for (t, &o) in last.iter().enumerate() {
                if o != NO_CELL {
                    self.offer(
                        implied(o as usize, n.digit, REGION + t as u8),
                        out,
                        &mut keep,
                    );
                }
            }
        }
    }

    /// The "off" potentials among the strict ancestors of `p`, as a set of keys.
    pub(super) fn off_ancestors(&self, p: u32) -> Set729 {
        let mut set = Set729::default();
        let mut i = self.nodes[p as usize].parent;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if !n.on {
                set.insert(key(n.cell, n.digit));
            }
            i = n.parent;
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::super::samples::working_grids;
    use super::*;

    #[test]
    fn conjugates_are_the_last_other_places_in_each_house() {
        let mut conj = Box::new([[CellSet::EMPTY; 81]; 9]);
        let mut links = 0;
        for (i, w) in working_grids(300, 4).iter().enumerate() {
            let linked: [CellSet; 9] =
                std::array::from_fn(|d| conjugates_of(w.places[d], &mut conj[d]));
            for d in 0..9 {
                let mut want_linked = CellSet::EMPTY;
                for cell in w.places[d].iter() {
                    // The digit's other place in each house of the cell where it has two, one by one.
                    let mut want = CellSet::EMPTY;
                    for t in 0..3 {
                        let here: Vec<usize> = cells_of(house_of(t, cell))
                            .iter()
                            .filter(|&x| w.places[d].contains(x))
                            .collect();
                        if here.len() == 2 {
                            want.insert(if here[0] == cell { here[1] } else { here[0] });
                        }
                    }
                    assert_eq!(
                        conj[d][cell],
                        want,
                        "grid {i}, digit {}, cell {cell}",
                        d + 1
                    );
                    if !want.is_empty() {
                        want_linked.insert(cell);
                    }
                    links += want.len();
                }
                assert_eq!(linked[d], want_linked, "grid {i}, digit {}", d + 1);
            }
        }
        assert!(links > 10_000, "{links} links");
    }

    /// [`conjugates_of`] by the plain scan, house by house.
    fn conjugates_by_house(places: CellSet) -> ([CellSet; 81], CellSet) {
        let mut conj = [CellSet::EMPTY; 81];
        let mut linked = CellSet::EMPTY;
        for h in 0..27 {
            let here: Vec<usize> = (places & cells_of(House(h))).iter().collect();
            if let [a, b] = here[..] {
                conj[a].insert(b);
                conj[b].insert(a);
                linked |= CellSet::single(a) | CellSet::single(b);
            }
        }
        (conj, linked)
    }

    #[test]
    fn conjugates_by_band_are_those_house_by_house() {
        // Random place sets, sparse to dense (one to four random words and-ed), over a row written with stale
        // entries.
        let mut random = super::super::samples::Xorshift::new(0x2545_F491_4F6C_DD1D);
        let mut word = || u128::from(random.next()) | u128::from(random.next()) << 64;
        let mut conj = [CellSet(u128::MAX >> 47); 81];
        let mut links = 0;
        for i in 0..20_000 {
            let mut places = word() & CellSet::ALL.0;
            for _ in 0..i % 4 {
                places &= word();
            }
            let places = CellSet(places);
            let linked = conjugates_of(places, &mut conj);
            let (want, want_linked) = conjugates_by_house(places);
            assert_eq!(linked, want_linked, "{places:?}");
            for cell in places.iter() {
                assert_eq!(conj[cell], want[cell], "{places:?}, cell {cell}");
                links += want[cell].len();
            }
        }
        assert!(links > 100_000, "{links} links");
    }

    /// What [`read`] reads.
    type Read = (Vec<(usize, usize, CellSet, CellSet)>, [u16; 9]);

    /// The entries of `t` that are read on the grid `w` (`conj` and `xrow` at the places of each digit, the
    /// bivalue tables whole).
    fn read(t: &Tables, w: &Working) -> Read {
        let mut out = Vec::new();
        for d in 0..9 {
            out.extend(
                w.places[d]
                    .iter()
                    .map(|cell| (d, cell, t.conj[d][cell], t.xrow[d][cell])),
            );
        }
        for (d, row) in t.bivalue.iter().enumerate() {
            out.extend(row.iter().enumerate().map(|(e, &s)| (d, e, s, t.bivalued)));
        }
        (out, t.pairs)
    }

    /// [`read`] of the tables of `w` by their definitions, cell by cell: a digit's last other place in each house
    /// of a cell where it has two, their union over the digit's places among a cell's peers, the cells of two
    /// candidates.
    fn plain(w: &Working) -> Read {
        let conj = |d: usize, cell: usize| {
            (0..3).fold(CellSet::EMPTY, |s, t| {
                let here = w.places[d] & cells_of(house_of(t, cell));
                let other = here.iter().find(|&x| x != cell);
                match other {
                    Some(x) if here.len() == 2 => s | CellSet::single(x),
                    _ => s,
                }
            })
        };
        let mut out = Vec::new();
        for d in 0..9 {
            out.extend(w.places[d].iter().map(|cell| {
                let seen = (w.places[d] & PEERS[cell]).iter();
                let xrow = seen.fold(CellSet::EMPTY, |s, x| s | conj(d, x));
                (d, cell, conj(d, cell), xrow)
            }));
        }
        let two: Vec<usize> = (0..81).filter(|&c| count9(w.mask[c]) == 2).collect();
        let bivalued = two
            .iter()
            .fold(CellSet::EMPTY, |s, &c| s | CellSet::single(c));
        let mut pairs = [0u16; 9];
        for (d, pairs) in pairs.iter_mut().enumerate() {
            for e in 0..9 {
                let both = two
                    .iter()
                    .filter(|&&c| d != e && w.mask[c] >> d & 1 != 0 && w.mask[c] >> e & 1 != 0)
                    .fold(CellSet::EMPTY, |s, &c| s | CellSet::single(c));
                *pairs |= u16::from(!both.is_empty()) << e;
                out.push((d, e, both, bivalued));
            }
        }
        (out, pairs)
    }

    /// `w` less one candidate of each of one to three digits at random (a cell keeps one at least).
    fn thin_digits(w: &mut Working, random: &mut super::super::samples::Xorshift) {
        for _ in 0..1 + random.next() % 3 {
            let d = 1 + (random.next() % 9) as u8;
            let two = w.places(d).iter().filter(|&c| w.get(c).len() >= 2);
            let places: Vec<usize> = two.collect();
            if !places.is_empty() {
                w.remove(places[random.next() as usize % places.len()], d);
            }
        }
    }

    /// [`Search::last`] of the grid `w` by its definition, place by place and house by house.
    fn last_by_house(w: &Working) -> Vec<[u8; 3]> {
        let mut last = vec![[NO_CELL; 3]; 729];
        for d in 1..=9u8 {
            for cell in w.places(d).iter() {
                for (t, entry) in last[key(cell as u8, d)].iter_mut().enumerate() {
                    let here: Vec<usize> =
                        (w.places(d) & cells_of(house_of(t, cell))).iter().collect();
                    if let [a, b] = here[..] {
                        *entry = if a == cell { b } else { a } as u8;
                    }
                }
            }
        }
        last
    }

    #[test]
    fn last_places_of_searches_one_after_another_are_those_of_each_grid() {
        // Searches made one after another on the thread's kept buffers: on other grids (most digits changed), on
        // each grid less a few candidates of one to three digits (the entries of the other digits kept), and now
        // and then while another search holds the kept buffers (new ones).
        let mut random = super::super::samples::Xorshift::new(0x9E37_79B9);
        let (mut few, mut many, mut links) = (0, 0, 0);
        let mut before: Option<Working> = None;
        for (i, w) in working_grids(300, 4).iter().enumerate() {
            let mut next = *w;
            for step in 0..4 {
                if step > 0 {
                    thin_digits(&mut next, &mut random);
                }
                let changed = before.map_or(9, |b| {
                    (0..9).filter(|&d| b.places[d] != next.places[d]).count()
                });
                few += usize::from((1..=3).contains(&changed));
                many += usize::from(changed > 3);
                let want = last_by_house(&next);
                let s = Search::new(&next);
                assert!(s.last == want, "grid {i}, step {step}");
                for d in 1..=9u8 {
                    let linked = next
                        .places(d)
                        .iter()
                        .filter(|&c| want[key(c as u8, d)] != [NO_CELL; 3]);
                    let linked = linked.fold(CellSet::EMPTY, |s, c| s | CellSet::single(c));
                    assert_eq!(
                        s.linked[d as usize - 1],
                        linked,
                        "grid {i}, step {step}, digit {d}"
                    );
                }
                if random.next() % 5 == 0 {
                    let other = Search::new(w);
                    assert!(
                        other.last == last_by_house(w),
                        "grid {i}, step {step}: while lent"
                    );
                }
                links += want.iter().flatten().filter(|&&o| o != NO_CELL).count();
                before = Some(next);
            }
        }
        // Both kinds of step came, many times: few digits changed (most entries kept), and many.
        assert!(
            few > 300 && many > 200 && links > 10_000,
            "{few} {many} {links}"
        );
    }

    #[test]
    fn tables_built_one_grid_after_another_are_those_built_afresh() {
        // One set of tables kept from grid to grid: other grids (most digits changed), and each grid less a few
        // candidates of one to three digits (the rows of the other digits kept).
        let mut kept = Tables::default();
        let mut random = super::super::samples::Xorshift::new(0x51ED_270B);
        let (mut few, mut many) = (0, 0);
        for (i, w) in working_grids(300, 4).iter().enumerate() {
            let mut grids = vec![*w];
            let mut next = *w;
            for _ in 0..3 {
                thin_digits(&mut next, &mut random);
                grids.push(next);
            }
            for (j, g) in grids.iter().enumerate() {
                let changed = (0..9).filter(|&d| kept.conj.of[d] != g.places[d]).count();
                few += usize::from((1..=3).contains(&changed));
                many += usize::from(changed > 3);
                kept.build(g);
                let mut fresh = Tables::default();
                fresh.build(g);
                assert!(read(&kept, g) == read(&fresh, g), "grid {i}, step {j}");
                assert!(
                    read(&kept, g) == plain(g),
                    "grid {i}, step {j}: by definition"
                );
            }
        }
        // Both kinds of step came, many times: few digits changed (most rows kept), and many.
        assert!(few > 300 && many > 200, "{few} {many}");
    }
}
