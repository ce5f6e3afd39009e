//! Build script: tells the library which optional code its compiler can build. `vector_avx512` is set when rustc
//! is 1.89 or newer, the first with stable AVX-512 target features and intrinsics: the vector engine then gets its
//! AVX-512 copy (src/solver/vector/avx512.rs). Older compilers, down to `rust-version`, build the other copies only.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vector_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    if autocfg::new().probe_rustc_version(1, 89) {
        println!("cargo::rustc-cfg=vector_avx512");
    }
}
