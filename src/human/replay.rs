//! Test support: replays the paths `explain --json` writes on a candidate grid of its own (no code of the solver's
//! or the ladder's), and checks each chain step's chains against the grid the step was taken on.

use serde_json::Value;

use crate::grid::Grid;

/// A candidate grid for replaying paths: each cell's digit (0 open) and candidates (bit `d`).
#[derive(Clone)]
pub(crate) struct Board {
    pub(crate) digits: [u8; 81],
    pub(crate) cands: [u16; 81],
}

/// Whether two distinct cells share a row, column or box.
pub(crate) fn peers(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

/// The cells of the row, column and box of `cell`, each house's cells.
fn houses_of(cell: usize) -> [Vec<usize>; 3] {
    let (r, c) = (cell / 9, cell % 9);
    let b = (r / 3 * 3, c / 3 * 3);
    [
        (0..9).map(|i| r * 9 + i).collect(),
        (0..9).map(|i| i * 9 + c).collect(),
        (0..9).map(|i| (b.0 + i / 3) * 9 + b.1 + i % 3).collect(),
    ]
}

impl Board {
    pub(crate) fn new(puzzle: &Grid) -> Board {
        let mut b = Board {
            digits: [0; 81],
            cands: [0x3FE; 81],
        };
        for cell in 0..81 {
            if puzzle.get(cell) != 0 {
                b.place(cell, puzzle.get(cell));
            }
        }
        b
    }

    pub(crate) fn place(&mut self, cell: usize, d: u8) {
        assert_eq!(
            self.digits[cell],
            0,
            "r{}c{} placed twice",
            cell / 9 + 1,
            cell % 9 + 1
        );
        assert!(
            self.cands[cell] >> d & 1 == 1,
            "{d} is no candidate of cell {cell}"
        );
        self.digits[cell] = d;
        self.cands[cell] = 1 << d;
        for p in (0..81).filter(|&p| peers(cell, p)) {
            self.cands[p] &= !(1 << d);
        }
    }

    pub(crate) fn eliminate(&mut self, cell: usize, d: u8) {
        assert!(
            self.cands[cell] >> d & 1 == 1,
            "{d} is no candidate of cell {cell}"
        );
        self.cands[cell] &= !(1 << d);
    }

    /// Whether `d` is a candidate of the open `cell`.
    fn open_candidate(&self, cell: usize, d: u8) -> bool {
        self.digits[cell] == 0 && self.cands[cell] >> d & 1 == 1
    }
}

/// `(cell, digit)` of each `[ROW, COL, DIGIT]` of a step's list.
pub(crate) fn cells(list: &Value) -> Vec<(usize, u8)> {
    list.as_array().unwrap().iter().map(triple).collect()
}

/// `(cell, digit)` of `[ROW, COL, DIGIT]`, each 1 to 9.
fn triple(t: &Value) -> (usize, u8) {
    let n: Vec<u64> = t
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(n.len(), 3);
    assert!(n.iter().all(|x| (1..=9).contains(x)), "{t}");
    ((n[0] as usize - 1) * 9 + n[1] as usize - 1, n[2] as u8)
}

/// A potential of a chain: `(cell, digit, on)`.
type Pot = (usize, u8, bool);

/// The potential of a link `{"on"|"off":[ROW,COL,DIGIT], ...}`.
fn potential(link: &Value) -> Pot {
    match (link.get("on"), link.get("off")) {
        (Some(t), None) => {
            let (c, d) = triple(t);
            (c, d, true)
        }
        (None, Some(t)) => {
            let (c, d) = triple(t);
            (c, d, false)
        }
        _ => panic!("a link is on or off: {link}"),
    }
}

/// What the chains of SE's technique `name` may hold: `(dynamic, advanced, inner static)`: links resting on
/// several potentials (the dynamic chains), "off" links implied by a technique or nested chain on the chain's grid
/// (nesting level 1 up), inner chains that alternate strictly (nesting levels 2 and 3).
fn allowed(name: &str) -> (bool, bool, bool) {
    match name {
        "Forcing Chain" | "Bidirectional Cycle" | "Multiple Forcing Chain" => (false, false, false),
        "Nishio Forcing Chain" | "Dynamic Forcing Chain" => (true, false, false),
        "Dynamic Forcing Chain (+)" => (true, true, false),
        "Dynamic Forcing Chain (+ Forcing Chains)"
        | "Dynamic Forcing Chain (+ Multiple Forcing Chains)" => (true, true, true),
        "Dynamic Forcing Chain (+ Dynamic Forcing Chains)" => (true, true, false),
        _ => panic!("{name} is no chain technique"),
    }
}

/// Checks one branch on `board` (the grid before the step): every potential is a candidate of an open cell; the
/// first has no parents, every other rests on earlier ones, each link sound on the grid as the branch found it;
/// returns its potentials. Counts the links checked in `links`.
fn branch(board: &Board, name: &str, b: &Value, links: &mut usize) -> Vec<Pot> {
    let (dynamic, advanced, inner_static) = allowed(name);
    let b = b.as_array().unwrap();
    assert!(!b.is_empty(), "{name}: an empty branch");
    let pots: Vec<Pot> = b.iter().map(potential).collect();
    for (i, (link, &(cell, d, on))) in b.iter().zip(&pots).enumerate() {
        assert!(
            board.open_candidate(cell, d),
            "{name}: link {link} is no candidate of the grid"
        );
        let from: Vec<usize> = match link.get("from") {
            None if i == 0 => Vec::new(),
            None => vec![i - 1],
            Some(f) => f
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect(),
        };
        if i == 0 {
            assert!(from.is_empty(), "{name}: the assumption rests on nothing");
            continue;
        }
        assert!(
            !from.is_empty() && from.iter().all(|&f| f < i),
            "{name}: link {i} rests on earlier links"
        );
        if !dynamic {
            assert_eq!(from, [i - 1], "{name}: a static chain is a line");
        }
        let parents: Vec<Pot> = from.iter().map(|&f| pots[f]).collect();
        if on {
            // Its cell's other candidates, or its digit's other places in one of its houses, are all off among
            // its parents: the first is one of them.
            assert!(
                parents.iter().all(|p| !p.2),
                "{name}: an on link rests on offs"
            );
            let off = |c: usize, x: u8| parents.iter().any(|p| p.0 == c && p.1 == x);
            let naked = (1..=9u8).all(|x| x == d || !board.open_candidate(cell, x) || off(cell, x));
            let hidden = houses_of(cell).iter().any(|h| {
                h.iter()
                    .all(|&c| c == cell || !board.open_candidate(c, d) || off(c, d))
            });
            assert!(naked || hidden, "{name}: link {link} is not forced");
        } else if parents.len() == 1 && parents[0].2 {
            // Its cell holds the parent, or its digit is placed in a peer.
            let (pc, pd, _) = parents[0];
            assert!(
                (pc == cell && pd != d) || (pd == d && peers(pc, cell)),
                "{name}: link {link} does not follow from its parent"
            );
        } else {
            assert!(
                advanced && parents.iter().all(|p| !p.2),
                "{name}: link {link} rests on offs only in the chains (+) and nested"
            );
        }
        if let Some(inner) = link.get("inner") {
            assert!(advanced, "{name}: inner chains in the nested chains only");
            for chain in inner.as_array().unwrap() {
                let chain: Vec<Pot> = chain.as_array().unwrap().iter().map(potential).collect();
                assert!(!chain.is_empty());
                for &(c, x, _) in &chain {
                    assert!(board.open_candidate(c, x), "{name}: inner {c} {x}");
                }
                if inner_static {
                    for w in chain.windows(2) {
                        assert_ne!(w[0].2, w[1].2, "{name}: an inner chain alternates");
                    }
                }
            }
        }
        *links += 1;
    }
    pots
}

/// Checks that `p` is the step's conclusion: placed (its cell's other candidates removed) when on, removed when off.
fn concludes(step: &Value, p: Pot) {
    let (place, elim) = (cells(&step["place"]), cells(&step["eliminate"]));
    if p.2 {
        assert_eq!(place, [(p.0, p.1)], "{step}");
        assert!(elim.iter().all(|e| e.0 == p.0 && e.1 != p.1), "{step}");
    } else {
        assert!(place.is_empty(), "{step}");
        assert_eq!(elim, [(p.0, p.1)], "{step}");
    }
}

/// Checks the chains of an SE step on `board` (the grid before the step): a chain step has them, another has none;
/// their branches are sound ([`branch`]) and prove the step's conclusion as their type says. Returns the links
/// checked.
pub(crate) fn check_chain(board: &Board, step: &Value) -> usize {
    let name = step["technique"].as_str().unwrap();
    let chain_step = name.contains("Chain") || name.contains("Cycle");
    let Some(chain) = step.get("chain") else {
        assert!(!chain_step, "{name} without its chain: {step}");
        return 0;
    };
    assert!(chain_step, "{name} with a chain");
    let mut links = 0;
    let branches: Vec<Vec<Pot>> = chain["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| branch(board, name, b, &mut links))
        .collect();
    let first = |b: &Vec<Pot>| b[0];
    let last = |b: &Vec<Pot>| *b.last().unwrap();
    let same_end = || branches.windows(2).all(|w| last(&w[0]) == last(&w[1]));
    match chain["type"].as_str().unwrap() {
        "forcing" => {
            assert_eq!(branches.len(), 1);
            let (a, z) = (first(&branches[0]), last(&branches[0]));
            assert_eq!((a.0, a.1, !a.2), z, "{step}");
            concludes(step, z);
        }
        "cycle" => check_cycle(step, &branches),
        "contradiction" => {
            assert_eq!(branches.len(), 2);
            let (a, b) = (&branches[0], &branches[1]);
            assert_eq!(first(a), first(b), "{step}");
            let (x, y) = (last(a), last(b));
            assert!(x.0 == y.0 && x.1 == y.1 && x.2 != y.2, "{step}");
            let s = first(a);
            concludes(step, (s.0, s.1, !s.2));
        }
        "double" => {
            assert_eq!(branches.len(), 2);
            let (a, b) = (first(&branches[0]), first(&branches[1]));
            assert!(a.0 == b.0 && a.1 == b.1 && a.2 && !b.2, "{step}");
            assert!(same_end(), "{step}");
            concludes(step, last(&branches[0]));
        }
        shape @ ("cell" | "region") => {
            let starts: Vec<Pot> = branches.iter().map(first).collect();
            assert!(starts.len() >= 2 && starts.iter().all(|p| p.2), "{step}");
            check_starts(board, step, shape == "cell", &starts);
            assert!(same_end(), "{step}");
            concludes(step, last(&branches[0]));
        }
        other => panic!("unknown chain type {other}"),
    }
    links
}

/// A cycle's checks: one branch, at least five links from an "on" potential back to it, "on" and "off" in turn;
/// each removed candidate sees an "on" and an "off" potential of its digit on the cycle.
fn check_cycle(step: &Value, branches: &[Vec<Pot>]) {
    assert_eq!(branches.len(), 1);
    let b = &branches[0];
    let (first, last) = (b[0], *b.last().unwrap());
    assert!(b.len() >= 5 && first == last && first.2, "{step}");
    for w in b.windows(2) {
        assert_ne!(w[0].2, w[1].2, "{step}");
    }
    assert!(cells(&step["place"]).is_empty());
    for (cell, d) in cells(&step["eliminate"]) {
        let sees = |on: bool| b.iter().any(|p| p.2 == on && p.1 == d && peers(p.0, cell));
        assert!(sees(true) && sees(false), "{step}");
    }
}

/// The starts of a cell chain (every candidate of one cell: `cell`) or a region chain (every place of one digit
/// in one house) on `board`.
fn check_starts(board: &Board, step: &Value, cell: bool, starts: &[Pot]) {
    if cell {
        let cell = starts[0].0;
        let digits: Vec<u8> = (1..=9).filter(|&d| board.open_candidate(cell, d)).collect();
        let got: Vec<u8> = starts.iter().map(|p| p.1).collect();
        assert!(starts.iter().all(|p| p.0 == cell), "{step}");
        assert_eq!(got, digits, "{step}");
    } else {
        let d = starts[0].1;
        assert!(starts.iter().all(|p| p.1 == d), "{step}");
        let got: Vec<usize> = starts.iter().map(|p| p.0).collect();
        let covered = houses_of(got[0]).iter().any(|h| {
            let places: Vec<usize> = h
                .iter()
                .copied()
                .filter(|&c| board.open_candidate(c, d))
                .collect();
            places == got
        });
        assert!(covered, "{step}");
    }
}
