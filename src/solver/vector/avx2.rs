//! The lanes' operations in AVX2 instructions ([`Avx2`]): a box in one 256-bit register, a band's patterns in one
//! 128-bit register, shuffles as byte shuffles.
//!
//! The contract that makes its `unsafe` blocks sound: [`Avx2`] is only ever the instruction set of the engine copy
//! that `run_v3` (in `vector`) runs, which it does only after `has_v3` found AVX2, BMI1, BMI2, LZCNT and POPCNT on
//! this processor, or lends its operations to the AVX-512 copy (`avx512`), which runs only where `has_v4` found
//! those features and more; no other code names it. Every operation is inlined into one of those copies.

use std::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi16, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_blendv_epi8, _mm256_broadcastsi128_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi16,
    _mm256_cmpgt_epi16, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi16, _mm256_set1_epi8, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_testz_si256, _mm256_xor_si256, _mm_and_si128,
    _mm_andnot_si128, _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128,
    _mm_testz_si128,
};
use std::mem::transmute;

use super::lanes::{Isa, Pick};

/// AVX2 (with the rest of x86-64-v3); see the module's contract.
#[derive(Clone, Copy)]
pub(super) struct Avx2;

/// Sixteen lanes as a register.
#[inline(always)]
pub(super) fn reg(a: [u16; 16]) -> __m256i {
    // SAFETY: both types are 32 bytes of plain data, every bit pattern valid for each.
    unsafe { transmute(a) }
}

/// A register as sixteen lanes.
#[inline(always)]
pub(super) fn lanes(x: __m256i) -> [u16; 16] {
    // SAFETY: as in `reg`.
    unsafe { transmute(x) }
}

/// Eight lanes as a register.
#[inline(always)]
pub(super) fn reg8(a: [u16; 8]) -> __m128i {
    // SAFETY: both types are 16 bytes of plain data, every bit pattern valid for each.
    unsafe { transmute(a) }
}

/// A register as eight lanes.
#[inline(always)]
pub(super) fn lanes8(x: __m128i) -> [u16; 8] {
    // SAFETY: as in `reg8`.
    unsafe { transmute(x) }
}

/// `p` (a constant) applied to the register `x`: one byte shuffle when every lane stays in its half, one 64-bit
/// permutation for the two turns of a box's columns, a copy of one word to all and a byte shuffle when every lane
/// comes from that word, else [`pick_any`].
#[inline(always)]
fn pick(x: __m256i, p: &Pick) -> __m256i {
    // SAFETY: the module's contract (AVX2 present); the load reads the 32 bytes of an array of 32 bytes.
    unsafe {
        if p.in_half {
            return _mm256_shuffle_epi8(x, _mm256_loadu_si256(p.bytes.as_ptr().cast()));
        }
        if p.idx == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3] {
            return _mm256_permute4x64_epi64::<0x39>(x);
        }
        if p.idx == [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7] {
            return _mm256_permute4x64_epi64::<0x4E>(x);
        }
        let word_bytes = || _mm256_loadu_si256(p.word_bytes.as_ptr().cast());
        match p.word {
            0 => return _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x00>(x), word_bytes()),
            1 => return _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x55>(x), word_bytes()),
            2 => return _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0xAA>(x), word_bytes()),
            3 => return _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0xFF>(x), word_bytes()),
            _ => {}
        }
    }
    pick_any(x, p)
}

/// Any `p` (also one chosen at run time) applied to the register `x`: both halves shuffled, then blended.
#[inline(always)]
fn pick_any(x: __m256i, p: &Pick) -> __m256i {
    // SAFETY: the module's contract (AVX2 present); the loads read the 32 bytes of arrays of 32 bytes.
    unsafe {
        let bytes = _mm256_loadu_si256(p.bytes.as_ptr().cast());
        let low = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x44>(x), bytes);
        let high = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0xEE>(x), bytes);
        _mm256_blendv_epi8(low, high, _mm256_loadu_si256(p.high.as_ptr().cast()))
    }
}

impl Isa for Avx2 {
    #[inline(always)]
    fn and16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe { _mm256_and_si256(reg(a), reg(b)) })
    }
    #[inline(always)]
    fn or16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe { _mm256_or_si256(reg(a), reg(b)) })
    }
    #[inline(always)]
    fn xor16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe { _mm256_xor_si256(reg(a), reg(b)) })
    }
    #[inline(always)]
    fn and_not16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe { _mm256_andnot_si256(reg(b), reg(a)) })
    }
    #[inline(always)]
    fn intersects16(a: [u16; 16], b: [u16; 16]) -> bool {
        // SAFETY: the module's contract.
        unsafe { _mm256_testz_si256(reg(a), reg(b)) == 0 }
    }
    #[inline(always)]
    fn counts16(a: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe {
            // Bits per nibble from a table, added per byte, then the two bytes of each lane added.
            let table = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                2, 3, 3, 4,
            );
            let nibble = _mm256_set1_epi8(0x0F);
            let x = reg(a);
            let low = _mm256_shuffle_epi8(table, _mm256_and_si256(x, nibble));
            let high =
                _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(x), nibble));
            let bytes = _mm256_add_epi8(low, high);
            _mm256_add_epi16(
                _mm256_and_si256(bytes, _mm256_set1_epi16(0xFF)),
                _mm256_srli_epi16::<8>(bytes),
            )
        })
    }
    #[inline(always)]
    fn equal16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe { _mm256_cmpeq_epi16(reg(a), reg(b)) })
    }
    #[inline(always)]
    fn nonzero16(a: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract.
        lanes(unsafe {
            let zero = _mm256_cmpeq_epi16(reg(a), _mm256_setzero_si256());
            _mm256_xor_si256(zero, _mm256_set1_epi16(-1))
        })
    }
    #[inline(always)]
    fn below16(a: [u16; 16], b: [u16; 16]) -> bool {
        // SAFETY: the module's contract. Lanes below 0x8000 compare the same signed.
        unsafe {
            let below = _mm256_cmpgt_epi16(reg(b), reg(a));
            _mm256_testz_si256(below, below) == 0
        }
    }
    #[inline(always)]
    fn pick16(a: [u16; 16], p: &Pick) -> [u16; 16] {
        lanes(pick(reg(a), p))
    }
    #[inline(always)]
    fn pick8(a: [u16; 16], p: &Pick) -> [u16; 8] {
        // SAFETY: the module's contract.
        lanes8(unsafe { _mm256_castsi256_si128(pick(reg(a), p)) })
    }
    #[inline(always)]
    fn pick_any(a: [u16; 16], p: &Pick) -> [u16; 16] {
        lanes(pick_any(reg(a), p))
    }
    #[inline(always)]
    fn spread8(a: [u16; 8], p: &Pick) -> [u16; 16] {
        // SAFETY: the module's contract; the load reads the 32 bytes of an array of 32 bytes.
        lanes(unsafe {
            let both = _mm256_broadcastsi128_si256(reg8(a));
            _mm256_shuffle_epi8(both, _mm256_loadu_si256(p.bytes.as_ptr().cast()))
        })
    }
    #[inline(always)]
    fn and8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        // SAFETY: the module's contract.
        lanes8(unsafe { _mm_and_si128(reg8(a), reg8(b)) })
    }
    #[inline(always)]
    fn or8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        // SAFETY: the module's contract.
        lanes8(unsafe { _mm_or_si128(reg8(a), reg8(b)) })
    }
    #[inline(always)]
    fn and_not8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        // SAFETY: the module's contract.
        lanes8(unsafe { _mm_andnot_si128(reg8(b), reg8(a)) })
    }
    #[inline(always)]
    fn intersects8(a: [u16; 8], b: [u16; 8]) -> bool {
        // SAFETY: the module's contract (SSE4.1 is part of x86-64-v3).
        unsafe { _mm_testz_si128(reg8(a), reg8(b)) == 0 }
    }
    #[inline(always)]
    fn first_nonzero8(a: [u16; 8]) -> usize {
        // SAFETY: the module's contract.
        let zero = unsafe { _mm_movemask_epi8(_mm_cmpeq_epi16(reg8(a), _mm_setzero_si128())) };
        // Two mask bits per lane; bit 16 stops the count at lane 8.
        ((!zero as u32 | 0x1_0000).trailing_zeros() / 2) as usize
    }
    #[inline(always)]
    fn count_all8(a: [u16; 8]) -> u32 {
        // SAFETY: 16 bytes of plain data as two words.
        let words: [u64; 2] = unsafe { transmute(a) };
        words[0].count_ones() + words[1].count_ones()
    }
}
