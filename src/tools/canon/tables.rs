//! The const tables of the canonical-form search, built at compile time: the best orders of a triplet
//! ([`BEST`], [`PLACE`], [`PATTERN_TRIPLET`]), the label classes of kept orders ([`CLASSES`]), the row-0 shortcut
//! ([`ROW0`]) and small bit tables.

use crate::grid::PERMUTATIONS_OF_3 as PERM3;

/// The source rows of band `b`.
pub(super) const BAND_ROWS: [u16; 3] = [0b111, 0b111_000, 0b111_000_000];

/// Which of `a < b`, `b < c`, `a < c`, `a == b`, `b == c`, `a == c` hold, as bits: all that decides the best
/// orders of a triplet.
#[inline(always)]
pub(super) const fn shape(a: u16, b: u16, c: u16) -> usize {
    (a < b) as usize
        | ((b < c) as usize) << 1
        | ((a < c) as usize) << 2
        | ((a == b) as usize) << 3
        | ((b == c) as usize) << 4
        | ((a == c) as usize) << 5
}

/// `BEST[shape][mask]`: the first order in `mask` giving the smallest triplet, and the sub-mask of all orders
/// giving it, found once by trying every order on values 0..3 of every shape.
pub(super) static BEST: [[(u8, u8); 64]; 64] = {
    let mut t = [[(0u8, 0u8); 64]; 64];
    let mut x = 0;
    while x < 27 {
        let v = [(x / 9) as u8, (x / 3 % 3) as u8, (x % 3) as u8];
        let s = shape(v[0] as u16, v[1] as u16, v[2] as u16);
        let mut mask = 1;
        while mask < 64 {
            let (mut best, mut first, mut sub) = (u8::MAX, 0u8, 0u8);
            let mut p = 0;
            while p < 6 {
                if mask >> p & 1 != 0 {
                    let o = PERM3[p];
                    let code = v[o[0] as usize] * 9 + v[o[1] as usize] * 3 + v[o[2] as usize];
                    if code < best {
                        (best, first, sub) = (code, p as u8, 0);
                    }
                    if code == best {
                        sub |= 1 << p;
                    }
                }
                p += 1;
            }
            t[s][mask] = (first, sub);
            mask += 1;
        }
        x += 1;
    }
    t
};

/// The smallest encoded triplet `(v[p[0]], v[p[1]], v[p[2]])` over the orders `p` in `mask` (not empty), as 4-bit
/// nibbles, and the sub-mask of the orders that reach it.
#[inline(always)]
pub(super) fn best_triplet(v: [u8; 3], mask: u8) -> (u16, u8) {
    let [sub, s0, s1, s2] =
        PLACE[shape(v[0].into(), v[1].into(), v[2].into())][usize::from(mask) & 63];
    let code =
        u16::from(v[0]) << (s0 & 15) | u16::from(v[1]) << (s1 & 15) | u16::from(v[2]) << (s2 & 15);
    (code, sub)
}

/// `PLACE[shape][mask]`: [`BEST`] as the sub-mask and, for each cell of the triplet, the shift that puts it at
/// its place in the encoded smallest triplet (8, 4 or 0), so that the code is built without reading the order.
pub(super) static PLACE: [[[u8; 4]; 64]; 64] = {
    let mut t = [[[0u8; 4]; 64]; 64];
    let mut s = 0;
    while s < 64 {
        let mut mask = 1;
        while mask < 64 {
            let (p, sub) = BEST[s][mask];
            let o = PERM3[p as usize];
            let mut e = [sub, 0, 0, 0];
            let mut q = 0;
            while q < 3 {
                e[1 + o[q] as usize] = 8 - 4 * q as u8;
                q += 1;
            }
            t[s][mask] = e;
            mask += 1;
        }
        s += 1;
    }
    t
};

/// `PATTERN_TRIPLET[m][mask]`: what [`best_triplet`] gives for a triplet whose given cells are `m` (bit `q` for cell
/// `q`), every given read as label 1: the smallest encoded triplet over the orders of `mask` and the sub-mask of
/// the orders reaching it.
pub(super) static PATTERN_TRIPLET: [[(u16, u8); 64]; 8] = {
    let mut t = [[(0u16, 0u8); 64]; 8];
    let mut m = 0;
    while m < 8 {
        let mut mask = 1;
        while mask < 64 {
            let (mut best, mut sub) = (u16::MAX, 0u8);
            let mut p = 0;
            while p < 6 {
                if mask >> p & 1 != 0 {
                    let o = PERM3[p];
                    let code =
                        ((m >> o[0] & 1) << 8 | (m >> o[1] & 1) << 4 | (m >> o[2] & 1)) as u16;
                    if code < best {
                        (best, sub) = (code, 0);
                    }
                    if code == best {
                        sub |= 1 << p;
                    }
                }
                p += 1;
            }
            t[m][mask] = (best, sub);
            mask += 1;
        }
        m += 1;
    }
    t
};

/// Classes of orders: a mask per class and the number of classes.
pub(super) type Classes = ([u8; 6], u8);

/// `CLASSES[by_value][marks][mask]`: the orders of `mask` split into classes that agree on `PERM3[p][q]` at every
/// marked `q` (`by_value` false: positions `q` whose bit is set in `marks`) or at every `q` where `PERM3[p][q]`
/// is marked (`by_value` true: values whose bit is set); every order of a class gives the same labels.
pub(super) static CLASSES: [[[Classes; 64]; 8]; 2] = {
    let mut t = [[[([0u8; 6], 0u8); 64]; 8]; 2];
    let mut by_value = 0;
    while by_value < 2 {
        let mut marks = 0;
        while marks < 8 {
            let mut mask = 1;
            while mask < 64 {
                let (mut out, mut keys, mut n) = ([0u8; 6], [0u8; 6], 0usize);
                let mut p = 0;
                while p < 6 {
                    if mask >> p & 1 != 0 {
                        let mut key = 0u8;
                        let mut q = 0;
                        while q < 3 {
                            let x = PERM3[p][q];
                            let marked = if by_value == 1 {
                                marks >> x & 1
                            } else {
                                marks >> q & 1
                            };
                            key = key << 2 | if marked != 0 { x } else { 3 };
                            q += 1;
                        }
                        let mut i = 0;
                        while i < n && keys[i] != key {
                            i += 1;
                        }
                        if i == n {
                            keys[n] = key;
                            n += 1;
                        }
                        out[i] |= 1 << p;
                    }
                    p += 1;
                }
                t[by_value][marks][mask] = (out, n as u8);
                mask += 1;
            }
            marks += 1;
        }
        by_value += 1;
    }
    t
};

/// `ROW0[m]`: for a line whose given cells are `m` (9 bits), its counts of givens per stack sorted, as 2-bit
/// fields from the smallest (bits 4 and 5) to the largest: all that decides its best row 0.
pub(super) static ROW0: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m: usize = 0;
    while m < 512 {
        let n = [
            (m & 7).count_ones() as u8,
            (m >> 3 & 7).count_ones() as u8,
            (m >> 6).count_ones() as u8,
        ];
        let lo = if n[0] < n[1] { n[0] } else { n[1] };
        let lo = if lo < n[2] { lo } else { n[2] };
        let hi = if n[0] > n[1] { n[0] } else { n[1] };
        let hi = if hi > n[2] { hi } else { n[2] };
        t[m] = lo << 4 | (n[0] + n[1] + n[2] - lo - hi) << 2 | hi;
        m += 1;
    }
    t
};

/// Bits set in each 3-bit value.
pub(super) const POP3: [u16; 8] = [0, 1, 1, 2, 1, 2, 2, 3];
