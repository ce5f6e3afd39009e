//! The chains a chain step of SE's path is shown with ([`Proof`]): what the step concluded from, read back from
//! the producer's potentials (each with its parents) only when the path is walked for an explanation, never while
//! rating.
//!
//! A proof is one or more branches, each the potentials of one chain from its assumption (first) to the potential
//! it reaches (last), every potential after the assumption following from earlier ones of the same branch
//! ([`Link::from`]). How the branches prove the step is the proof's [`Shape`]. A potential a nested producer's hint
//! implied (SE's nested forcing chains) carries that hint's chains ([`Link::inner`]).

/// How a proof's branches prove its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A bidirectional cycle: one branch from an "on" potential back to itself; a candidate seen by an "on" and an
    /// "off" potential of the same digit on the cycle goes.
    Cycle,
    /// A forcing chain: one branch from an assumption to its opposite (the same candidate in the other state),
    /// which is the step's conclusion.
    Forcing,
    /// A contradiction: two branches from the same assumption, reaching one candidate on and off; the assumption
    /// is false (the step's conclusion is its opposite).
    Contradiction,
    /// A double implication: the candidate assumed on (first branch) and off (second) both reach the step's
    /// conclusion (the last potential of each).
    Double,
    /// A cell's forcing chains: each candidate of a cell assumed on (one branch each) reaches the conclusion.
    Cell,
    /// A region's forcing chains: each place of a digit in a house assumed on reaches the conclusion.
    Region,
}

impl Shape {
    /// The name in `explain --json`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Shape::Cycle => "cycle",
            Shape::Forcing => "forcing",
            Shape::Contradiction => "contradiction",
            Shape::Double => "double",
            Shape::Cell => "cell",
            Shape::Region => "region",
        }
    }
}

/// A candidate on or off: `digit` in `cell` (0 to 80).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Potential {
    pub(crate) cell: u8,
    pub(crate) digit: u8,
    pub(crate) on: bool,
}

/// One potential of a branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    pub(crate) potential: Potential,
    /// The indexes, in the branch, of the potentials it follows from (all earlier; none for the assumption). An
    /// "on" potential follows from "off" ones (the first is its cell's or its house's other candidate turned off,
    /// the others the candidates a dynamic chain removed before that made it the last); an "off" potential from
    /// one "on" potential, or, for the advanced implications of the dynamic chains (+) and the nested ones, from
    /// the "off" potentials the technique or nested chain rested on.
    pub(crate) from: Vec<u32>,
    /// For a potential a nested chain implied: that chain's branches, each its potentials from its assumption to
    /// its conclusion (for a nested dynamic chain, its potentials farthest from its conclusion first).
    pub(crate) inner: Vec<Vec<Potential>>,
}

/// The chains that prove a chain step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Proof {
    pub(crate) shape: Shape,
    pub(crate) branches: Vec<Vec<Link>>,
}

impl Proof {
    /// A proof of one branch per list of potentials, each a chain of single links from its first potential to its
    /// last.
    pub(super) fn linear(shape: Shape, branches: Vec<Vec<Potential>>) -> Proof {
        let branches = branches
            .into_iter()
            .map(|b| {
                b.into_iter()
                    .enumerate()
                    .map(|(i, potential)| Link {
                        potential,
                        from: if i == 0 {
                            Vec::new()
                        } else {
                            vec![i as u32 - 1]
                        },
                        inner: Vec::new(),
                    })
                    .collect()
            })
            .collect();
        Proof { shape, branches }
    }
}

impl std::fmt::Display for Potential {
    /// The forum's notation: `r6c4=2` on, `r6c4<>2` off.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (row, col) = (self.cell / 9 + 1, self.cell % 9 + 1);
        let op = if self.on { "=" } else { "<>" };
        write!(f, "r{row}c{col}{op}{}", self.digit)
    }
}

impl Proof {
    /// Writes the proof in the forum's notation, one line per branch after `indent`: the branch's main line, from
    /// its assumption to its end following each potential's first parent (`r6c4=2 -> r6c7<>2 -> ...`), a potential
    /// that also rests on others followed by them in brackets (`r5c7=2 [r5c8<>2]`); under a branch, each
    /// potential a nested chain implied, then that chain's branches, indented further.
    pub(crate) fn write_text(
        &self,
        out: &mut dyn std::io::Write,
        indent: &str,
    ) -> std::io::Result<()> {
        for branch in &self.branches {
            let Some(mut i) = branch.len().checked_sub(1) else {
                continue;
            };
            let mut line = vec![i];
            while let Some(&f) = branch[i].from.first() {
                i = f as usize;
                line.push(i);
            }
            write!(out, "{indent}")?;
            for (n, &i) in line.iter().rev().enumerate() {
                let link = &branch[i];
                if n > 0 {
                    write!(out, " -> ")?;
                }
                write!(out, "{}", link.potential)?;
                if link.from.len() > 1 {
                    let also: Vec<String> = link.from[1..]
                        .iter()
                        .map(|&f| branch[f as usize].potential.to_string())
                        .collect();
                    write!(out, " [{}]", also.join(", "))?;
                }
            }
            writeln!(out)?;
            for link in branch.iter().filter(|l| !l.inner.is_empty()) {
                writeln!(out, "{indent}  {} by the nested chain:", link.potential)?;
                for chain in &link.inner {
                    let text: Vec<String> = chain.iter().map(|p| p.to_string()).collect();
                    writeln!(out, "{indent}    {}", text.join(" -> "))?;
                }
            }
        }
        Ok(())
    }
}

/// The branches of a nested hint from its identity (its chains' potentials `key * 2 + on`, each chain listed from
/// its conclusion up, `u16::MAX` after each): each chain reversed, its assumption first.
pub(super) fn inner_chains(identity: &[u16]) -> Vec<Vec<Potential>> {
    identity
        .split(|&k| k == u16::MAX)
        .filter(|chain| !chain.is_empty())
        .map(|chain| {
            chain
                .iter()
                .rev()
                .map(|&k| {
                    let (key, on) = (usize::from(k / 2), k % 2 == 1);
                    Potential {
                        cell: (key / 9) as u8,
                        digit: (key % 9) as u8 + 1,
                        on,
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_chains_come_assumption_first() {
        // r1c1=5 -> r1c2<>5, then a second chain r9c9<>1 alone.
        let on = (5 - 1) * 2 + 1;
        let off = (9 + 5 - 1) * 2;
        let last = (80 * 9) * 2;
        let chains = inner_chains(&[off, on, u16::MAX, last, u16::MAX]);
        let p = |cell, digit, on| Potential { cell, digit, on };
        assert_eq!(
            chains,
            vec![vec![p(0, 5, true), p(1, 5, false)], vec![p(80, 1, false)]]
        );
        let proof = Proof::linear(Shape::Forcing, chains);
        assert_eq!(proof.branches[0][0].from, Vec::<u32>::new());
        assert_eq!(proof.branches[0][1].from, vec![0]);
    }

    #[test]
    fn text_follows_first_parents_and_brackets_the_others() {
        let p = |cell, digit, on| Potential { cell, digit, on };
        let link = |potential, from: &[u32]| Link {
            potential,
            from: from.to_vec(),
            inner: Vec::new(),
        };
        // r1c1=5 -> r1c2<>5, r1c3<>5; r1c9=5 rests on r1c2<>5 (first) and r1c3<>5; the side branch r1c3<>5
        // is in brackets only.
        let mut branch = vec![
            link(p(0, 5, true), &[]),
            link(p(2, 5, false), &[0]),
            link(p(1, 5, false), &[0]),
            link(p(8, 5, true), &[2, 1]),
        ];
        branch[3].inner = vec![vec![p(9, 1, true), p(10, 1, false)]];
        let proof = Proof {
            shape: Shape::Forcing,
            branches: vec![branch],
        };
        let mut out = Vec::new();
        proof.write_text(&mut out, "  ").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            concat!(
                "  r1c1=5 -> r1c2<>5 -> r1c9=5 [r1c3<>5]\n",
                "    r1c9=5 by the nested chain:\n",
                "      r2c1=1 -> r2c2<>1\n"
            )
        );
    }
}
