//! What this processor offers the solver engines, read at run time: the x86-64-v3 features their fast copies are
//! compiled for, and whether its bit extraction instruction is fast.

/// Whether this processor has the x86-64-v3 features (AVX2, BMI1, BMI2, LZCNT, POPCNT) the engines' fast copies
/// are compiled for (the check is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// Whether this processor's bit extraction (`pext`, BMI2) is fast: it is on every x86-64 processor with BMI2 but
/// AMD's (and Hygon's) before Zen 3 (family 0x19), where it is microcoded and takes dozens of cycles. Read once
/// with the `cpuid` instruction, then cached.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_fast_pext() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        // SAFETY: every x86-64 processor has `cpuid` and its leaves 0 and 1. From Rust 1.89 the call is safe; the
        // block is for older versions, hence the allowance.
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let mut name = [0u8; 12];
        name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
        name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
        name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        !slow_pext_family(&name, family)
    })
}

/// Whether processors of this vendor (`cpuid`'s 12-byte name) and family microcode `pext`.
#[cfg(target_arch = "x86_64")]
fn slow_pext_family(vendor: &[u8; 12], family: u32) -> bool {
    matches!(vendor, b"AuthenticAMD" | b"HygonGenuine") && family < 0x19
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// `pext` counts as slow on AMD's and Hygon's processors before Zen 3 only.
    #[test]
    fn pext_is_slow_on_amd_before_zen_3_only() {
        let cases: [(&[u8; 12], u32, bool); 6] = [
            (b"AuthenticAMD", 0x17, true),
            (b"AuthenticAMD", 0x15, true),
            (b"HygonGenuine", 0x18, true),
            (b"AuthenticAMD", 0x19, false),
            (b"AuthenticAMD", 0x1A, false),
            (b"GenuineIntel", 0x06, false),
        ];
        for (vendor, family, slow) in cases {
            assert_eq!(slow_pext_family(vendor, family), slow, "{family:#x}");
        }
    }
}
