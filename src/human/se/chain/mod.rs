//! SE's chain model: potentials and their links, the working grid the chains grow on, and the chaining producers
//! built on them (forcing chains and cycles; Nishio, multiple, dynamic and nested forcing chains).
//!
//! The files, lowest first; each imports only from files above it in this list, never from one below (so the
//! imports form no circle): `proof` (the chains a chain step is shown with, read back from the potentials only
//! when a path is explained), `potential` (a candidate on or off with its parents' link, the 729 keys, `NONE`),
//! `set` (a set of the 729 candidates), `working` (the working grid), `samples` (the tests' random working grids), `hint` (SE's order of chain hints and what a
//! nested producer hands a nesting chain), `kind` (which `Chaining` producer), `links` (SE's static links and the
//! search holding their potentials), `reach` (which static searches can find anything), `conclusion` (the hint a
//! search of Forcing Chains & Cycles concludes), `forcing` (Forcing Chains & Cycles), `footprint` (what a static
//! assumption reaches, as sets), `multiple` (Multiple Forcing Chains as a nested producer), `memo` (the nested producers' hints
//! remembered), `advanced` (the techniques of nesting level 1 on a working grid), `closure` (what a
//! static assumption leads to, and the working grids where no nested forcing chain or cycle can rest), `multiple_rest` (the
//! working grids where no nested Multiple Forcing Chain can rest), `nested` (nesting levels 2 to
//! 4), `linked` (SE's `LinkedSet`), `dynamic` (one dynamic chain: [`dynamic::Engine`]), `continuation` (a
//! producer call's chains, continued from the level below's) and `chaining` (SE's `Chaining` producer). Level 4 nests the `Chaining` producer itself: `chaining` hands its own nested hints to
//! the chains it grows, so no file below it names it.

mod advanced;
pub(super) mod chaining;
mod closure;
mod conclusion;
mod continuation;
mod dynamic;
mod footprint;
pub(super) mod forcing;
mod hint;
pub(super) mod kind;
mod linked;
mod links;
mod memo;
mod multiple;
mod multiple_rest;
mod nested;
mod potential;
pub(super) mod proof;
mod reach;
#[cfg(test)]
mod samples;
mod set;
mod working;
