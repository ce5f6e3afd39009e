//! The lanes' operations with AVX-512 instructions on 256-bit registers ([`Avx512`]): what AVX-512VL, BW and
//! BITALG add to the AVX2 copy (`avx2`). A lane count is one instruction (`vpopcntw`); a shuffle that crosses the
//! register's halves one 16-bit permute (`vpermw`, zeroing through a mask) where AVX2 needs two to five; a turn
//! of each 64-bit word one rotate; lane tests give a mask register. The rest is the AVX2 copy's: compiled with
//! these features, its two-operand logic is fused into three-input `vpternlog` by the compiler.
//!
//! The contract that makes its `unsafe` blocks sound: [`Avx512`] is only ever the instruction set of the engine
//! copy that `run_v4` (in `vector`) runs, which it does only after `has_v4` found AVX-512F, BW, VL and BITALG with
//! the x86-64-v3 features on this processor; no other code names it. Every operation is inlined into that copy.
//! Compiled only when rustc has these features stable (1.89; the build script sets `vector_avx512`).

// The module is compiled only by rustc 1.89 and newer (build.rs), where every item below is stable.
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::{
    __m256i, _mm256_castsi256_si128, _mm256_cmplt_epu16_mask, _mm256_loadu_si256,
    _mm256_maskz_permutexvar_epi16, _mm256_movm_epi16, _mm256_popcnt_epi16, _mm256_ror_epi64,
    _mm256_test_epi16_mask, _mm256_zextsi128_si256, _mm_test_epi16_mask,
};

use super::avx2::{lanes, lanes8, reg, reg8, Avx2};
use super::lanes::{Isa, Pick};
use super::layout::ROWS_BY;

/// AVX-512F, BW, VL and BITALG (with x86-64-v3); see the module's contract.
#[derive(Clone, Copy)]
pub(super) struct Avx512;

/// Whether this processor has the features of the AVX-512 copy (the checks are cached by the standard library).
#[inline]
pub(super) fn has_v4() -> bool {
    super::super::processor::has_v3()
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bitalg")
}

/// `p` applied to `x` by one 16-bit permute, lanes outside `p.keep` zeroed: any `p`, also one chosen at run time.
#[inline(always)]
fn permute(x: __m256i, p: &Pick) -> __m256i {
    // SAFETY: the module's contract (AVX-512BW and VL present); the load reads the 32 bytes of an array of 16
    // `u16`.
    unsafe {
        _mm256_maskz_permutexvar_epi16(p.keep, _mm256_loadu_si256(p.words.as_ptr().cast()), x)
    }
}

/// `p` (a constant) applied to `x`: the turns of each row of a box's matrix (each 64-bit word) by a rotate; what
/// the AVX2 copy does in one instruction, as it does; anything else by [`permute`].
#[inline(always)]
fn pick(x: __m256i, p: &Pick) -> __m256i {
    if p.idx == ROWS_BY[1].idx {
        // SAFETY: the module's contract (AVX-512F and VL present).
        return unsafe { _mm256_ror_epi64::<16>(x) };
    }
    if p.idx == ROWS_BY[2].idx {
        // SAFETY: as above.
        return unsafe { _mm256_ror_epi64::<32>(x) };
    }
    const TURN_1: [u8; 16] = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3];
    const TURN_2: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
    if p.in_half || p.idx == TURN_1 || p.idx == TURN_2 {
        return reg(Avx2::pick16(lanes(x), p));
    }
    permute(x, p)
}

impl Isa for Avx512 {
    #[inline(always)]
    fn and16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        Avx2::and16(a, b)
    }
    #[inline(always)]
    fn or16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        Avx2::or16(a, b)
    }
    #[inline(always)]
    fn xor16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        Avx2::xor16(a, b)
    }
    #[inline(always)]
    fn and_not16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        Avx2::and_not16(a, b)
    }
    #[inline(always)]
    fn intersects16(a: [u16; 16], b: [u16; 16]) -> bool {
        Avx2::intersects16(a, b)
    }
    #[inline(always)]
    fn counts16(a: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract (AVX-512BITALG and VL present).
        lanes(unsafe { _mm256_popcnt_epi16(reg(a)) })
    }
    #[inline(always)]
    fn equal16(a: [u16; 16], b: [u16; 16]) -> [u16; 16] {
        Avx2::equal16(a, b)
    }
    #[inline(always)]
    fn nonzero16(a: [u16; 16]) -> [u16; 16] {
        // SAFETY: the module's contract (AVX-512BW and VL present).
        lanes(unsafe {
            let x = reg(a);
            _mm256_movm_epi16(_mm256_test_epi16_mask(x, x))
        })
    }
    #[inline(always)]
    fn below16(a: [u16; 16], b: [u16; 16]) -> bool {
        // SAFETY: the module's contract (AVX-512BW and VL present).
        unsafe { _mm256_cmplt_epu16_mask(reg(a), reg(b)) != 0 }
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
        lanes(permute(reg(a), p))
    }
    #[inline(always)]
    fn spread8(a: [u16; 8], p: &Pick) -> [u16; 16] {
        // SAFETY: the module's contract. The upper eight lanes are zero and never picked (`p` picks lanes below 8).
        lanes(permute(unsafe { _mm256_zextsi128_si256(reg8(a)) }, p))
    }
    #[inline(always)]
    fn and8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        Avx2::and8(a, b)
    }
    #[inline(always)]
    fn or8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        Avx2::or8(a, b)
    }
    #[inline(always)]
    fn and_not8(a: [u16; 8], b: [u16; 8]) -> [u16; 8] {
        Avx2::and_not8(a, b)
    }
    #[inline(always)]
    fn intersects8(a: [u16; 8], b: [u16; 8]) -> bool {
        Avx2::intersects8(a, b)
    }
    #[inline(always)]
    fn first_nonzero8(a: [u16; 8]) -> usize {
        // SAFETY: the module's contract (AVX-512BW and VL present).
        let nonzero = unsafe {
            let x = reg8(a);
            _mm_test_epi16_mask(x, x)
        };
        // Bit 8 stops the count at lane 8.
        (u32::from(nonzero) | 0x100).trailing_zeros() as usize
    }
    #[inline(always)]
    fn count_all8(a: [u16; 8]) -> u32 {
        Avx2::count_all8(a)
    }
}
