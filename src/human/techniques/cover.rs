//! [`first_cover`]: the search for `k` of a list of bit masks whose union has exactly `k` bits, shared by the
//! subset and fish techniques.

/// Finds the first `k`-combination of `masks` (lexicographic order of indices, `k` at most 4) whose union has
/// exactly `k` bits and for which `f(indices, union)` returns `Some`. Branches whose union already exceeds `k`
/// bits are cut, which keeps subset and fish searches cheap.
pub(super) fn first_cover<T>(
    masks: &[u16],
    k: usize,
    f: &mut impl FnMut(&[usize], u16) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        masks: &[u16],
        k: usize,
        start: usize,
        picked: &mut [usize; 4],
        depth: usize,
        union: u16,
        f: &mut impl FnMut(&[usize], u16) -> Option<T>,
    ) -> Option<T> {
        if depth == k {
            return if union.count_ones() as usize == k {
                f(&picked[..k], union)
            } else {
                None
            };
        }
        for i in start..masks.len() {
            if masks.len() - i < k - depth {
                break;
            }
            let u = union | masks[i];
            if u.count_ones() as usize > k {
                continue;
            }
            picked[depth] = i;
            if let Some(t) = go(masks, k, i + 1, picked, depth + 1, u, f) {
                return Some(t);
            }
        }
        None
    }
    if k == 0 || k > 4 || k > masks.len() {
        return None;
    }
    go(masks, k, 0, &mut [0; 4], 0, 0, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_are_found_in_order_and_only_with_k_bits() {
        // Every 2-combination of four masks whose union has exactly two bits, in lexicographic order.
        let masks = [0b011, 0b110, 0b011, 0b101];
        let mut seen = Vec::new();
        let none: Option<()> = first_cover(&masks, 2, &mut |pick, union| {
            seen.push((pick.to_vec(), union));
            None
        });
        assert!(none.is_none());
        assert_eq!(seen, vec![(vec![0, 2], 0b011)]);
        // Three masks inside three bits, from a brute-force count.
        let masks = [0b0011, 0b0110, 0b0101, 0b1001, 0b0111];
        let mut count = 0;
        let _: Option<()> = first_cover(&masks, 3, &mut |pick, union| {
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
            first_cover(&masks, 3, &mut |pick, _| (pick == [0, 2, 4]).then_some(7)),
            Some(7)
        );
        assert!(first_cover(&[1u16, 2], 3, &mut |_, _| Some(())).is_none());
    }
}
