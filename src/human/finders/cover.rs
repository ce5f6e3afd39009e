//! [`first_cover`]: the search for `k` of a list of bit masks whose union has exactly `k` bits, in either
//! [`Order`], shared by the subset and fish finders.

/// The order `k`-combinations of indices are visited in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Lexicographic: `{0,1}, {0,2}, {0,3}, .., {1,2}, ..` (the levels' scans).
    Lex,
    /// Colexicographic, the masks' increasing value: `{0,1}, {0,2}, {1,2}, {0,3}, ..` (SE's `Permutations`).
    Colex,
}

impl Order {
    /// A key of a `k`-combination (as a mask of indices below 16) that sorts the combinations of one size in this
    /// order.
    pub(crate) fn rank(self, mask: u16) -> u16 {
        match self {
            Order::Colex => mask,
            // The first index decides first, a lower one sorting earlier: the mask read from its low bit down.
            Order::Lex => !mask.reverse_bits(),
        }
    }
}

/// Finds the first `k`-combination of `masks` (indices ascending in the slice `f` gets; combinations visited in
/// `order`, `k` at most 4) whose union has exactly `k` bits and for which `f(indices, union)` returns `Some`.
/// Branches whose union already exceeds `k` bits are cut, which keeps subset and fish searches cheap.
pub(crate) fn first_cover<T>(
    masks: &[u16],
    k: usize,
    order: Order,
    f: &mut impl FnMut(&[usize], u16) -> Option<T>,
) -> Option<T> {
    if k == 0 || k > 4 || k > masks.len() {
        return None;
    }
    let bound = match order {
        Order::Lex => 0,
        Order::Colex => masks.len(),
    };
    let search = Search { masks, k, order };
    search.go(bound, &mut [0; 4], 0, 0, f)
}

/// One search: the masks, how many to pick, in which order.
struct Search<'a> {
    masks: &'a [u16],
    k: usize,
    order: Order,
}

impl Search<'_> {
    /// Fills `picked[..k]`, one slot a level. Lexicographic: slot `depth`, its index running up from `bound` (the one
    /// after the index chosen before), leaving room for the slots after it. Colexicographic: the highest slot first,
    /// slot `k - 1 - depth` running up from its lowest possible index to below `bound` (the index chosen above it).
    fn go<T>(
        &self,
        bound: usize,
        picked: &mut [usize; 4],
        depth: usize,
        union: u16,
        f: &mut impl FnMut(&[usize], u16) -> Option<T>,
    ) -> Option<T> {
        let (masks, k, order) = (self.masks, self.k, self.order);
        if depth == k {
            return if union.count_ones() as usize == k {
                f(&picked[..k], union)
            } else {
                None
            };
        }
        let later = k - 1 - depth;
        let (slot, range) = match order {
            Order::Lex => (depth, bound..masks.len() - later),
            Order::Colex => (later, later..bound),
        };
        for i in range {
            let u = union | masks[i];
            if u.count_ones() as usize > k {
                continue;
            }
            picked[slot] = i;
            let next = match order {
                Order::Lex => i + 1,
                Order::Colex => i,
            };
            if let Some(t) = self.go(next, picked, depth + 1, u, f) {
                return Some(t);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_are_found_in_order_and_only_with_k_bits() {
        // Every 2-combination of four masks whose union has exactly two bits, in lexicographic order.
        let masks = [0b011, 0b110, 0b011, 0b101];
        let mut seen = Vec::new();
        let none: Option<()> = first_cover(&masks, 2, Order::Lex, &mut |pick, union| {
            seen.push((pick.to_vec(), union));
            None
        });
        assert!(none.is_none());
        assert_eq!(seen, vec![(vec![0, 2], 0b011)]);
        // Three masks inside three bits, from a brute-force count.
        let masks = [0b0011, 0b0110, 0b0101, 0b1001, 0b0111];
        let mut count = 0;
        let _: Option<()> = first_cover(&masks, 3, Order::Lex, &mut |pick, union| {
            assert_eq!(union.count_ones(), 3);
            assert!(pick.windows(2).all(|w| w[0] < w[1]));
            count += 1;
            None
        });
        let mut brute = 0;
        for a in 0..5 {
            for b in a + 1..5 {
                for c in b + 1..5 {
                    if (masks[a] | masks[b] | masks[c]).count_ones() == 3 {
                        brute += 1;
                    }
                }
            }
        }
        assert_eq!(count, brute);
        assert_eq!(
            first_cover(&masks, 3, Order::Lex, &mut |pick, _| (pick == [0, 2, 4])
                .then_some(7)),
            Some(7)
        );
        assert!(first_cover(&[1u16, 2], 3, Order::Lex, &mut |_, _| Some(())).is_none());
    }

    /// Every `k`-combination of `n` indices, as masks, in the given order, from the search with masks that never
    /// cut a branch (each index its own bit, `k` bits in every union).
    fn visited(n: usize, k: usize, order: Order) -> Vec<u16> {
        let masks: Vec<u16> = (0..n).map(|i| 1 << i).collect();
        let mut seen = Vec::new();
        let _: Option<()> = first_cover(&masks, k, order, &mut |pick, union| {
            assert_eq!(pick.iter().fold(0, |m, &i| m | 1 << i), union);
            seen.push(union);
            None
        });
        seen
    }

    #[test]
    fn both_orders_visit_every_combination_once_in_their_order() {
        for k in 1..=4 {
            let all: Vec<u16> = (0u16..512)
                .filter(|m| m.count_ones() as usize == k)
                .collect();
            // Colexicographic: increasing mask value.
            assert_eq!(visited(9, k, Order::Colex), all, "colex, k = {k}");
            // Lexicographic: the sorted index lists in dictionary order.
            let mut lex = all.clone();
            let indices = |m: &u16| (0..9).filter(|i| m >> i & 1 != 0).collect::<Vec<_>>();
            lex.sort_by_key(indices);
            assert_eq!(visited(9, k, Order::Lex), lex, "lex, k = {k}");
            // And each order's rank sorts its own visits.
            for order in [Order::Lex, Order::Colex] {
                let v = visited(9, k, order);
                assert!(v.windows(2).all(|w| order.rank(w[0]) < order.rank(w[1])));
            }
        }
        assert_eq!(
            visited(9, 2, Order::Colex)[..4],
            [0b11, 0b101, 0b110, 0b1001]
        );
        assert_eq!(visited(9, 2, Order::Lex)[..3], [0b11, 0b101, 0b1001]);
    }
}
