//! Which of SE's chaining producers (its `Chaining` with `isMultiple`, `isDynamic`, `isNishio` and a nesting
//! level): Nishio, multiple and dynamic forcing chains, and the dynamic ones that follow the advanced implications
//! of nesting levels 1 to 4.

/// Which of SE's chaining producers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::human::se) enum Kind {
    Nishio,
    Multiple,
    Dynamic,
    /// Dynamic chains that also follow the advanced implications of nesting level 1 (SE's "(+)").
    DynamicPlus,
    /// Dynamic chains that also follow the advanced implications of nesting level 2: those of level 1, then
    /// forcing chains and cycles (SE's "(+ Forcing Chains)").
    NestedFc,
    /// Dynamic chains that also follow the advanced implications of nesting level 3: those of level 2, then
    /// multiple forcing chains (SE's "(+ Multiple Forcing Chains)").
    NestedMfc,
    /// Dynamic chains that also follow the advanced implications of nesting level 4: those of level 1, then the
    /// dynamic forcing chains of nesting level `n` (0 to 3) found on the chain's grid (SE's "(+ Dynamic Forcing
    /// Chains)", its `nestingLimit` `n`).
    NestedDfc(u8),
}

impl Kind {
    /// SE's nesting level of the advanced implications followed (0 none).
    pub(super) fn level(self) -> u8 {
        match self {
            Kind::Nishio | Kind::Multiple | Kind::Dynamic => 0,
            Kind::DynamicPlus => 1,
            Kind::NestedFc => 2,
            Kind::NestedMfc => 3,
            Kind::NestedDfc(_) => 4,
        }
    }

    /// The dynamic producer of nesting level `n` (0 to 3), as [`Kind::NestedDfc`] nests it.
    pub(super) fn of_level(n: u8) -> Kind {
        match n {
            0 => Kind::Dynamic,
            1 => Kind::DynamicPlus,
            2 => Kind::NestedFc,
            _ => Kind::NestedMfc,
        }
    }
}
