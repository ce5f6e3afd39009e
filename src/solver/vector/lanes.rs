//! Fixed-width lanes of 16-bit digit sets, the vector engine's unit of work: [`L16`] (a box) and [`L8`] (a band's
//! patterns), with their operations carried out by an instruction set [`Isa`]: [`Portable`] (plain code, lane by
//! lane) here, AVX2 in `avx2`. The engine is generic over it, so each instruction set gets its own copy.

use std::marker::PhantomData;

/// A constant shuffle of sixteen lanes: lane `l` of the result is lane `idx[l]` of the source, or zero where
/// `idx[l]` is 16 or more. The byte forms are for byte-shuffle instructions: `bytes` picks, within a 128-bit half,
/// the two bytes of lane `idx[l] % 8` (0x80: zero), and `high` is all ones where the lane comes from the source's
/// upper half (`idx[l]` in 8..16). The byte forms are read by the AVX2 copy only, the word forms (`words`, `keep`)
/// by the AVX-512 copy only.
#[derive(Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Pick {
    pub(super) idx: [u8; 16],
    /// For a 16-bit permute instruction: lane `l` takes lane `words[l]` (`idx[l] % 16`) where `keep` has bit `l`
    /// (`idx[l]` below 16), and is zero elsewhere.
    #[cfg_attr(not(vector_avx512), allow(dead_code))]
    pub(super) words: [u16; 16],
    #[cfg_attr(not(vector_avx512), allow(dead_code))]
    pub(super) keep: u16,
    pub(super) bytes: [u8; 32],
    pub(super) high: [u8; 32],
    /// Whether every lane stays in its own 128-bit half (one byte shuffle does).
    pub(super) in_half: bool,
    /// The one 64-bit word (four lanes) every source lane is in, or 4 when there is none.
    pub(super) word: u8,
    /// `bytes` for a source whose `word` is copied to all four words: the lane's two bytes within the word.
    pub(super) word_bytes: [u8; 32],
}

impl Pick {
    /// The shuffle `idx`, with its byte forms.
    pub(super) const fn new(idx: [u8; 16]) -> Pick {
        let mut bytes = [0u8; 32];
        let mut high = [0u8; 32];
        let mut word_bytes = [0x80u8; 32];
        let mut words = [0u16; 16];
        let mut keep = 0u16;
        let mut in_half = true;
        let mut word = 4;
        let mut l = 0;
        while l < 16 {
            let i = idx[l] as usize;
            words[l] = (i % 16) as u16;
            if i < 16 {
                keep |= 1 << l;
                bytes[2 * l] = (2 * (i % 8)) as u8;
                bytes[2 * l + 1] = (2 * (i % 8) + 1) as u8;
                word_bytes[2 * l] = (2 * (i % 4)) as u8;
                word_bytes[2 * l + 1] = (2 * (i % 4) + 1) as u8;
                word = if word == 4 || word == i / 4 { i / 4 } else { 5 };
                if i >= 8 {
                    high[2 * l] = 0xFF;
                    high[2 * l + 1] = 0xFF;
                }
                in_half &= (i >= 8) == (l >= 8);
            } else {
                bytes[2 * l] = 0x80;
                bytes[2 * l + 1] = 0x80;
            }
            l += 1;
        }
        Pick {
            idx,
            words,
            keep,
            bytes,
            high,
            in_half,
            word: if word < 4 { word as u8 } else { 4 },
            word_bytes,
        }
    }
}

/// The operations of the lanes, on their arrays. Every implementation gives the same results.
pub(super) trait Isa: Copy {
    fn and16(a: [u16; 16], b: [u16; 16]) -> [u16; 16];
    fn or16(a: [u16; 16], b: [u16; 16]) -> [u16; 16];
    fn xor16(a: [u16; 16], b: [u16; 16]) -> [u16; 16];
    /// `a & !b`.
    fn and_not16(a: [u16; 16], b: [u16; 16]) -> [u16; 16];
    /// Whether `a & b` has a bit.
    fn intersects16(a: [u16; 16], b: [u16; 16]) -> bool;
    /// The bits set in each lane (lanes of at most nine bits).
    fn counts16(a: [u16; 16]) -> [u16; 16];
    /// All ones where the lanes are equal, else zero.
    fn equal16(a: [u16; 16], b: [u16; 16]) -> [u16; 16];
    /// All ones in the nonzero lanes.
    fn nonzero16(a: [u16; 16]) -> [u16; 16];
    /// Whether some lane of `a` is below that of `b` (lanes below 0x8000).
    fn below16(a: [u16; 16], b: [u16; 16]) -> bool;
    fn pick16(a: [u16; 16], p: &Pick) -> [u16; 16];
    /// The first eight lanes of [`Isa::pick16`].
    fn pick8(a: [u16; 16], p: &Pick) -> [u16; 8];
    /// [`Isa::pick16`] for a `p` chosen at run time.
    fn pick_any(a: [u16; 16], p: &Pick) -> [u16; 16] {
        Self::pick16(a, p)
    }
    /// `p` applied to `a` and eight zero lanes (every `idx` below 8 or none).
    fn spread8(a: [u16; 8], p: &Pick) -> [u16; 16];
    fn and8(a: [u16; 8], b: [u16; 8]) -> [u16; 8];
    fn or8(a: [u16; 8], b: [u16; 8]) -> [u16; 8];
    fn and_not8(a: [u16; 8], b: [u16; 8]) -> [u16; 8];
    fn intersects8(a: [u16; 8], b: [u16; 8]) -> bool;
    /// The bits set in all lanes.
    fn count_all8(a: [u16; 8]) -> u32;
    /// The first nonzero lane (8 when there is none).
    fn first_nonzero8(a: [u16; 8]) -> usize;
}

/// Plain code, lane by lane: any processor.
#[derive(Clone, Copy)]
pub(super) struct Portable;

/// Lane-wise `f`.
#[inline(always)]
fn zip<const N: usize>(a: [u16; N], b: [u16; N], f: impl Fn(u16, u16) -> u16) -> [u16; N] {
    let mut out = [0u16; N];
    for l in 0..N {
        out[l] = f(a[l], b[l]);
    }
    out
}

impl Isa for Portable {
    #[inline(always)]
    fn and16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        zip(a, b, |x, y| x & y)
    }
    #[inline(always)]
    fn or16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        zip(a, b, |x, y| x | y)
    }
    #[inline(always)]
    fn xor16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        zip(a, b, |x, y| x ^ y)
    }
    #[inline(always)]
    fn and_not16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        zip(a, b, |x, y| x & !y)
    }
    #[inline(always)]
    fn intersects16(a: [u16; 16], b: [u16; 16]) -> bool {
        zip(a, b, |x, y| x & y).iter().fold(0, |acc, &x| acc | x) != 0
    }
    #[inline(always)]
    fn counts16(a: [u16; 16]) -> [u16; 16] {
        zip(a, a, |x, _| x.count_ones() as u16)
    }
    #[inline(always)]
    fn equal16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        zip(a, b, |x, y| if x == y { 0xFFFF } else { 0 })
    }
    #[inline(always)]
    fn nonzero16(a: [u16; 16]) -> [u16; 16] {
        zip(a, a, |x, _| if x != 0 { 0xFFFF } else { 0 })
    }
    #[inline(always)]
    fn below16(a: [u16; 16], b: [u16; 16]) -> bool {
        zip(a, b, |x, y| u16::from(x < y)).iter().any(|&x| x != 0)
    }
    #[inline(always)]
    fn pick16(a: [u16; 16], p: &Pick) -> [u16; 16] {
        p.idx.map(|i| a.get(usize::from(i)).copied().unwrap_or(0))
    }
    #[inline(always)]
    fn pick8(a: [u16; 16], p: &Pick) -> [u16; 8] {
        let mut out = [0u16; 8];
        for (o, &i) in out.iter_mut().zip(&p.idx) {
            *o = a.get(usize::from(i)).copied().unwrap_or(0);
        }
        out
    }
    #[inline(always)]
    fn spread8(a: [u16; 8], p: &Pick) -> [u16; 16] {
        p.idx.map(|i| a.get(usize::from(i)).copied().unwrap_or(0))
    }
    #[inline(always)]
    fn and8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        zip(a, b, |x, y| x & y)
    }
    #[inline(always)]
    fn or8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        zip(a, b, |x, y| x | y)
    }
    #[inline(always)]
    fn and_not8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        zip(a, b, |x, y| x & !y)
    }
    #[inline(always)]
    fn intersects8(a: [u16; 8], b: [u16; 8]) -> bool {
        zip(a, b, |x, y| x & y).iter().fold(0, |acc, &x| acc | x) != 0
    }
    #[inline(always)]
    fn count_all8(a: [u16; 8]) -> u32 {
        a.iter().map(|x| x.count_ones()).sum()
    }
    #[inline(always)]
    fn first_nonzero8(a: [u16; 8]) -> usize {
        a.iter().position(|&x| x != 0).unwrap_or(8)
    }
}

/// Sixteen lanes: one box (see `layout`), worked on by `I`.
#[repr(C, align(32))]
pub(super) struct L16<I>(pub(super) [u16; 16], PhantomData<I>);

/// Eight lanes: a band's six patterns (lanes 6 and 7 stay empty), worked on by `I`.
#[repr(C, align(16))]
pub(super) struct L8<I>(pub(super) [u16; 8], PhantomData<I>);

// Copy and Clone by hand: derived ones would ask `I` for them too.
impl<I> Clone for L16<I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I> Copy for L16<I> {}
impl<I> Clone for L8<I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I> Copy for L8<I> {}

impl<I: Isa> L16<I> {
    #[inline(always)]
    pub(super) const fn new(x: [u16; 16]) -> L16<I> {
        L16(x, PhantomData)
    }
    #[inline(always)]
    pub(super) const fn splat(x: u16) -> L16<I> {
        L16([x; 16], PhantomData)
    }
    #[inline(always)]
    pub(super) fn and(self, o: L16<I>) -> L16<I> {
        L16::new(I::and16(self.0, o.0))
    }
    #[inline(always)]
    pub(super) fn or(self, o: L16<I>) -> L16<I> {
        L16::new(I::or16(self.0, o.0))
    }
    #[inline(always)]
    pub(super) fn xor(self, o: L16<I>) -> L16<I> {
        L16::new(I::xor16(self.0, o.0))
    }
    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: L16<I>) -> L16<I> {
        L16::new(I::and_not16(self.0, o.0))
    }
    /// Whether any lane is nonzero.
    #[inline(always)]
    pub(super) fn any(self) -> bool {
        I::intersects16(self.0, self.0)
    }
    /// Whether `self` and `o` share a bit.
    #[inline(always)]
    pub(super) fn intersects(self, o: L16<I>) -> bool {
        I::intersects16(self.0, o.0)
    }
    /// The bits set in each lane (lanes of at most nine bits).
    #[inline(always)]
    pub(super) fn counts(self) -> L16<I> {
        L16::new(I::counts16(self.0))
    }
    /// All ones in the lanes where `self` equals `o`, else zero.
    #[inline(always)]
    pub(super) fn equal(self, o: L16<I>) -> L16<I> {
        L16::new(I::equal16(self.0, o.0))
    }
    /// All ones in the nonzero lanes.
    #[inline(always)]
    pub(super) fn nonzero(self) -> L16<I> {
        L16::new(I::nonzero16(self.0))
    }
    /// Whether some lane is below the same lane of `o` (small counts only).
    #[inline(always)]
    pub(super) fn any_below(self, o: L16<I>) -> bool {
        I::below16(self.0, o.0)
    }
    /// The lanes `p` picks (see [`Pick`]).
    #[inline(always)]
    pub(super) fn pick(self, p: &Pick) -> L16<I> {
        L16::new(I::pick16(self.0, p))
    }
    /// The first eight lanes `p` picks.
    #[inline(always)]
    pub(super) fn pick8(self, p: &Pick) -> L8<I> {
        L8::new(I::pick8(self.0, p))
    }
    /// [`L16::pick`] for a `p` chosen at run time.
    #[inline(always)]
    pub(super) fn pick_any(self, p: &Pick) -> L16<I> {
        L16::new(I::pick_any(self.0, p))
    }
    /// The first eight lanes and the last eight.
    #[inline(always)]
    pub(super) fn halves(self) -> (L8<I>, L8<I>) {
        let x = self.0;
        (
            L8::new([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]),
            L8::new([x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]]),
        )
    }
}

impl<I: Isa> L8<I> {
    #[inline(always)]
    pub(super) const fn new(x: [u16; 8]) -> L8<I> {
        L8(x, PhantomData)
    }
    #[inline(always)]
    pub(super) const fn splat(x: u16) -> L8<I> {
        L8([x; 8], PhantomData)
    }
    #[inline(always)]
    pub(super) fn and(self, o: L8<I>) -> L8<I> {
        L8::new(I::and8(self.0, o.0))
    }
    #[inline(always)]
    pub(super) fn or(self, o: L8<I>) -> L8<I> {
        L8::new(I::or8(self.0, o.0))
    }
    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: L8<I>) -> L8<I> {
        L8::new(I::and_not8(self.0, o.0))
    }
    /// Whether `self` and `o` share a bit.
    #[inline(always)]
    pub(super) fn intersects(self, o: L8<I>) -> bool {
        I::intersects8(self.0, o.0)
    }
    /// The bits set in all lanes.
    #[inline(always)]
    pub(super) fn count_all(self) -> u32 {
        I::count_all8(self.0)
    }
    /// The first nonzero lane (8 when there is none).
    #[inline(always)]
    pub(super) fn first_nonzero(self) -> usize {
        I::first_nonzero8(self.0)
    }
    /// The sixteen lanes `p` picks from these eight.
    #[inline(always)]
    pub(super) fn spread(self, p: &Pick) -> L16<I> {
        L16::new(I::spread8(self.0, p))
    }
}
