//! The vocabulary of techniques and difficulty: [`Technique`] (the order the solver tries them, their names, weights
//! and levels, [`UnknownTechnique`]), [`Level`] ([`UnknownLevel`]) and [`TechniqueSet`]. It imports nothing else
//! from `human`, so every other module of it can import from here.

use std::fmt;

/// A solving technique, in the order the solver tries them (easiest first); the order is also the difficulty
/// order used for "hardest technique needed".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a box, row or column.
    HiddenSingle,
    /// Locked candidates type 1: a digit of a box confined to one row or column of it, removed from the rest of
    /// that line.
    Pointing,
    /// Locked candidates type 2 (box-line reduction): a digit of a row or column confined to one box, removed
    /// from the rest of that box.
    Claiming,
    /// Two cells of a house with the same two candidates: those digits leave the house's other cells.
    NakedPair,
    /// Two digits of a house with the same two places: the cells' other candidates go.
    HiddenPair,
    /// Three cells of a house whose candidates make three digits.
    NakedTriple,
    /// Three digits of a house confined to three cells.
    HiddenTriple,
    /// A digit with two places in each of two rows (columns), on the same two columns (rows).
    XWing,
    /// Two rows (columns) with two places each for a digit, one end of each in a shared column (row): the digit
    /// leaves the cells that see both other ends.
    Skyscraper,
    /// A row and a column with two places each for a digit, one end of each in a shared box: the digit leaves
    /// the cells that see both other ends.
    TwoStringKite,
    /// Four cells of a house whose candidates make four digits.
    NakedQuad,
    /// Four digits of a house confined to four cells.
    HiddenQuad,
    /// The X-Wing on three rows (columns).
    Swordfish,
    /// A bivalue pivot `xy` seeing bivalue pincers `xz` and `yz`: `z` leaves every cell seeing both pincers.
    XyWing,
    /// Two cells holding the same two candidates `xy`, each seeing one end of a house's only two places for
    /// `x`: `y` leaves every cell seeing both.
    WWing,
    /// Cells of one digit joined by strong links, coloured alternately: a colour with two cells seeing each other
    /// is false (wrap), and a cell seeing both colours loses the digit (trap).
    SimpleColoring,
    /// A pivot `xyz` seeing pincers `xz` and `yz`: `z` leaves every cell seeing all three.
    XyzWing,
    /// The X-Wing on four rows (columns).
    Jellyfish,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 19] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Swordfish,
        Technique::XyWing,
        Technique::WWing,
        Technique::SimpleColoring,
        Technique::XyzWing,
        Technique::Jellyfish,
    ];

    /// The name as a single word (`naked-single`, `x-wing`), used in `rate` output and `--techniques` lists.
    pub const fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked-single",
            Technique::HiddenSingle => "hidden-single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked-pair",
            Technique::HiddenPair => "hidden-pair",
            Technique::NakedTriple => "naked-triple",
            Technique::HiddenTriple => "hidden-triple",
            Technique::XWing => "x-wing",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "2-string-kite",
            Technique::NakedQuad => "naked-quad",
            Technique::HiddenQuad => "hidden-quad",
            Technique::Swordfish => "swordfish",
            Technique::XyWing => "xy-wing",
            Technique::WWing => "w-wing",
            Technique::SimpleColoring => "simple-coloring",
            Technique::XyzWing => "xyz-wing",
            Technique::Jellyfish => "jellyfish",
        }
    }

    /// Points one use of the technique adds to a puzzle's score (see [`crate::human::Rating`]).
    pub(crate) const fn weight(self) -> u32 {
        match self {
            Technique::NakedSingle => 1,
            Technique::HiddenSingle => 2,
            Technique::Pointing | Technique::Claiming => 5,
            Technique::NakedPair => 6,
            Technique::HiddenPair => 7,
            Technique::NakedTriple => 8,
            Technique::HiddenTriple => 9,
            Technique::XWing | Technique::Skyscraper => 12,
            Technique::TwoStringKite | Technique::NakedQuad => 13,
            Technique::HiddenQuad | Technique::Swordfish => 14,
            Technique::XyWing => 15,
            Technique::WWing | Technique::SimpleColoring => 16,
            Technique::XyzWing => 17,
            Technique::Jellyfish => 18,
        }
    }

    /// The level of a puzzle whose hardest technique is this one (and that needs no guess).
    pub const fn level(self) -> Level {
        match self {
            Technique::NakedSingle => Level::Simple,
            Technique::HiddenSingle => Level::Easy,
            Technique::Pointing
            | Technique::Claiming
            | Technique::NakedPair
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::HiddenTriple => Level::Intermediate,
            _ => Level::Expert,
        }
    }

    /// Position in [`Technique::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Technique {
    /// The name as people write it: `naked single`, `x-wing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::HiddenTriple => "hidden triple",
            Technique::NakedQuad => "naked quad",
            Technique::HiddenQuad => "hidden quad",
            Technique::TwoStringKite => "2-string kite",
            Technique::SimpleColoring => "simple coloring",
            other => other.name(),
        })
    }
}

/// A technique name that is not one of [`Technique::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique {0:?} (known: {known})", known = Technique::ALL.map(|t| t.name()).join(", "))]
pub struct UnknownTechnique(pub String);

impl std::str::FromStr for Technique {
    type Err = UnknownTechnique;
    fn from_str(s: &str) -> Result<Technique, UnknownTechnique> {
        by_name(Technique::ALL, Technique::name, s).ok_or_else(|| UnknownTechnique(s.to_string()))
    }
}

/// Difficulty level, named like QQWing's: the level of the hardest technique a puzzle needs ([`Technique::level`]),
/// or expert when it needs a guess. [`crate::human::Rating`] documents the mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Naked singles alone solve it.
    Simple,
    /// Hidden singles are needed.
    Easy,
    /// Locked candidates, pairs or triples are needed.
    Intermediate,
    /// Fish, links, wings, quads or guesses are needed.
    Expert,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [
        Level::Simple,
        Level::Easy,
        Level::Intermediate,
        Level::Expert,
    ];

    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Simple => "simple",
            Level::Easy => "easy",
            Level::Intermediate => "intermediate",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of [`Level::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?} (known: simple, easy, intermediate, expert)")]
pub struct UnknownLevel(pub String);

impl std::str::FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        by_name(Level::ALL, Level::name, s).ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// A set of techniques the solver may use (for example, everything but X-Wing).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TechniqueSet(u32);

impl TechniqueSet {
    /// Every technique.
    pub const ALL: TechniqueSet = TechniqueSet((1 << Technique::ALL.len()) - 1);
    /// No technique: the solver can only guess.
    pub const NONE: TechniqueSet = TechniqueSet(0);

    /// The techniques up to and including `t`, in difficulty order.
    #[cfg(test)]
    pub(crate) const fn up_to(t: Technique) -> TechniqueSet {
        TechniqueSet((1 << (t.index() + 1)) - 1)
    }

    /// This set without `t`.
    pub const fn without(self, t: Technique) -> TechniqueSet {
        TechniqueSet(self.0 & !(1 << t.index()))
    }

    /// This set with `t`.
    pub const fn with(self, t: Technique) -> TechniqueSet {
        TechniqueSet(self.0 | 1 << t.index())
    }

    /// True when `t` is in the set.
    pub const fn contains(self, t: Technique) -> bool {
        self.0 >> t.index() & 1 != 0
    }

    /// The techniques, easiest first.
    pub fn iter(self) -> impl Iterator<Item = Technique> {
        Technique::ALL
            .into_iter()
            .filter(move |&t| self.contains(t))
    }
}

impl std::fmt::Debug for TechniqueSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|t| t.name()))
            .finish()
    }
}

/// The item of `all` whose `name` is `s`: the one lookup behind the `FromStr` of [`Technique`] and [`Level`].
fn by_name<T: Copy, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
    s: &str,
) -> Option<T> {
    all.into_iter().find(|&t| name(t) == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technique_names_round_trip_and_read_well() {
        for t in Technique::ALL {
            assert_eq!(t.name().parse::<Technique>().unwrap(), t);
            assert_eq!(Technique::ALL[t.index()], t);
        }
        assert_eq!(Technique::NakedSingle.to_string(), "naked single");
        assert_eq!(Technique::XWing.to_string(), "x-wing");
        assert_eq!(Technique::XyzWing.to_string(), "xyz-wing");
        assert_eq!(Technique::HiddenTriple.to_string(), "hidden triple");
        assert!("x wing".parse::<Technique>().is_err());
    }

    #[test]
    fn order_is_difficulty_and_levels_never_fall() {
        for w in Technique::ALL.windows(2) {
            assert!(w[0] < w[1]);
            assert!(w[0].weight() <= w[1].weight());
            assert!(w[0].level() <= w[1].level());
        }
    }

    #[test]
    fn technique_sets() {
        let s = TechniqueSet::up_to(Technique::HiddenSingle);
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![Technique::NakedSingle, Technique::HiddenSingle]
        );
        let no_x = TechniqueSet::ALL.without(Technique::XWing);
        assert!(!no_x.contains(Technique::XWing));
        assert!(no_x.contains(Technique::Swordfish));
        assert_eq!(no_x.with(Technique::XWing), TechniqueSet::ALL);
        assert_eq!(TechniqueSet::NONE.iter().count(), 0);
    }
}
