//! argon2id password hashes (PHC strings).
//!
//! Every hash needs `m_cost` KiB of work memory (19 MB with the defaults). argon2 allocates it per
//! hash, and glibc keeps freed blocks of that size in its per-thread arenas, so a burst of checks on
//! many threads left gigabytes resident for good. The work memory is therefore reused from a small
//! pool instead: it is allocated once per concurrent check (callers bound how many run at once) and
//! never handed back to the allocator.

use argon2::password_hash::phc::{Output, Salt};
use argon2::{Algorithm, Argon2, Block, Params, PasswordHash, Version};
use std::sync::Mutex;

/// Work memories kept for reuse; a check finding the pool empty allocates one, and puts it back
/// afterwards if the pool has room (else it is freed).
pub const POOL: usize = 16;

static MEMORY: Mutex<Vec<Vec<Block>>> = Mutex::new(Vec::new());

/// Runs `f` over `blocks` blocks of pooled work memory.
fn with_memory<R>(blocks: usize, f: impl FnOnce(&mut [Block]) -> R) -> R {
    let mut mem = MEMORY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .pop()
        .unwrap_or_default();
    if mem.len() < blocks {
        mem.resize(blocks, Block::default());
    }
    let out = f(&mut mem[..blocks]);
    let mut pool = MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    if pool.len() < POOL {
        pool.push(mem);
    }
    out
}

/// The hash of `password` under `salt` with the PHC string's algorithm, version and parameters.
fn compute(password: &[u8], salt: &Salt, h: &PasswordHash, out: &mut [u8]) -> Option<()> {
    let algorithm = Algorithm::try_from(h.algorithm.as_str()).ok()?;
    let version = h
        .version
        .map(Version::try_from)
        .transpose()
        .ok()?
        .unwrap_or_default();
    let params = Params::try_from(h).ok()?;
    let argon = Argon2::new(algorithm, version, params.clone());
    with_memory(params.block_count(), |mem| {
        argon
            .hash_password_into_with_memory(password, salt, out, mem)
            .ok()
    })
}

pub fn hash(password: &str) -> String {
    let argon = Argon2::default();
    let params = argon.params().clone();
    let salt_bytes: [u8; 16] = rand::random();
    let salt = Salt::new(&salt_bytes).expect("16 bytes are a valid salt");
    let mut out = vec![0u8; params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
    with_memory(params.block_count(), |mem| {
        argon.hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, mem)
    })
    .expect("argon2 hashing with default params cannot fail");
    PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::default().into()),
        params: (&params).try_into().expect("default params"),
        salt: Some(salt),
        hash: Some(Output::new(&out).expect("default output length")),
    }
    .to_string()
}

pub fn verify(password: &str, phc: &str) -> bool {
    let Ok(h) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&h.salt, &h.hash) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    compute(password.as_bytes(), salt, &h, &mut out).is_some()
        // `Output`'s comparison runs in constant time.
        && Output::new(&out).is_ok_and(|o| &o == expected)
}

#[cfg(test)]
mod tests {
    use argon2::{Argon2, PasswordHasher, PasswordVerifier};

    #[test]
    fn roundtrip() {
        let h = super::hash("abc12345");
        assert!(h.starts_with("$argon2id$"));
        assert!(super::verify("abc12345", &h));
        assert!(!super::verify("abc12346", &h));
        assert!(!super::verify("abc12345", "garbage"));
    }

    #[test]
    fn agrees_with_the_argon2_crate() {
        // Hashes written before the pooled memory (by the crate's own hasher) still verify, and
        // ours verify with the crate's verifier.
        let theirs = Argon2::default()
            .hash_password(b"abc12345")
            .unwrap()
            .to_string();
        assert!(super::verify("abc12345", &theirs));
        assert!(!super::verify("abc1234", &theirs));
        let ours = super::hash("abc12345");
        let parsed = argon2::PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"abc12345", &parsed)
                .is_ok()
        );
    }
}
