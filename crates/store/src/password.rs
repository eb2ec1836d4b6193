//! argon2id password hashes (PHC strings).

use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};

pub fn hash(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .expect("argon2 hashing with default params cannot fail")
        .to_string()
}

pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn roundtrip() {
        let h = super::hash("abc12345");
        assert!(h.starts_with("$argon2id$"));
        assert!(super::verify("abc12345", &h));
        assert!(!super::verify("abc12346", &h));
        assert!(!super::verify("abc12345", "garbage"));
    }
}
