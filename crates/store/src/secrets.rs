//! Secrets at rest (platform app secrets, account tokens): sealed with ChaCha20-Poly1305 under a key
//! that lives outside the database — `CLIPMATRIX_SECRET_KEY` (64 hex chars) or `<data_dir>/secret.key`,
//! created on first use with mode 0600. A stolen database alone reveals no token.

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use rand::Rng;

#[derive(Clone)]
pub struct Sealer {
    cipher: ChaCha20Poly1305,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(..)")
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Sealer {
    pub fn from_key(key: &[u8; 32]) -> Sealer {
        Sealer {
            cipher: ChaCha20Poly1305::new(&Key::from(*key)),
        }
    }

    /// The key from the environment, else from the data folder (made on first use).
    pub fn load(data_dir: &std::path::Path) -> anyhow::Result<Sealer> {
        let text = match std::env::var("CLIPMATRIX_SECRET_KEY") {
            Ok(k) if !k.trim().is_empty() => k.trim().to_string(),
            _ => {
                let path = data_dir.join("secret.key");
                match std::fs::read_to_string(&path) {
                    Ok(k) => k.trim().to_string(),
                    Err(_) => {
                        std::fs::create_dir_all(data_dir)?;
                        let mut k = [0u8; 32];
                        rand::rng().fill(&mut k);
                        let text = hex(&k);
                        write_private(&path, &text)?;
                        text
                    }
                }
            }
        };
        let bytes = unhex(&text)
            .filter(|b| b.len() == 32)
            .ok_or_else(|| anyhow::anyhow!("the secret key must be 64 hex characters"))?;
        let mut key = [0u8; 32];
        key.copy_from_slice(&bytes);
        Ok(Sealer::from_key(&key))
    }

    /// `v1:<hex nonce><hex ciphertext+tag>`; the empty string stays empty.
    pub fn seal(&self, plain: &str) -> String {
        if plain.is_empty() {
            return String::new();
        }
        let mut nonce = [0u8; 12];
        rand::rng().fill(&mut nonce);
        let ct = self
            .cipher
            .encrypt(&Nonce::from(nonce), plain.as_bytes())
            .expect("chacha20poly1305 encryption does not fail");
        format!("v1:{}{}", hex(&nonce), hex(&ct))
    }

    /// None when the value was sealed under another key or altered.
    pub fn open(&self, sealed: &str) -> Option<String> {
        if sealed.is_empty() {
            return Some(String::new());
        }
        let raw = unhex(sealed.strip_prefix("v1:")?)?;
        if raw.len() < 12 + 16 {
            return None;
        }
        let (nonce, ct) = raw.split_at(12);
        let nonce: [u8; 12] = nonce.try_into().ok()?;
        let plain = self.cipher.decrypt(&Nonce::from(nonce), ct).ok()?;
        String::from_utf8(plain).ok()
    }
}

/// A server setting kept sealed (the key signing tokens and file links): made and sealed on first
/// use; a value an older version stored in clear is sealed where it lies, so existing installs carry
/// on with the same key. A value sealed under another secret key stops the start, saying so.
pub async fn sealed_setting(
    db: &crate::Db,
    sealer: &Sealer,
    key: &str,
    init: impl FnOnce() -> String,
) -> anyhow::Result<String> {
    let stored = db.setting_or_init(key, || sealer.seal(&init())).await?;
    if !stored.starts_with("v1:") {
        // Only this clear value is replaced: another node sealing it at the same time is harmless.
        sqlx::query("UPDATE settings SET value = $1 WHERE key = $2 AND value = $3")
            .bind(sealer.seal(&stored))
            .bind(key)
            .bind(&stored)
            .execute(&db.pool)
            .await?;
        return Ok(stored);
    }
    sealer.open(&stored).ok_or_else(|| {
        anyhow::anyhow!(
            "the setting {key} is sealed under another secret key: start with the CLIPMATRIX_SECRET_KEY \
             (or <data>/secret.key) it was made with"
        )
    })
}

fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    opts.open(path)?.write_all(text.as_bytes())
}

/// What a call may show of a secret: its first 4 characters.
pub fn mask(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    format!("{}****", s.chars().take(4).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seals_and_opens_and_detects_tampering() {
        let s = Sealer::from_key(&[7u8; 32]);
        let sealed = s.seal("act.secret-token");
        assert!(sealed.starts_with("v1:") && !sealed.contains("secret"));
        assert_ne!(
            sealed,
            s.seal("act.secret-token"),
            "a fresh nonce each time"
        );
        assert_eq!(s.open(&sealed).as_deref(), Some("act.secret-token"));
        let mut bad = sealed.clone();
        bad.replace_range(bad.len() - 2.., "00");
        assert_eq!(s.open(&bad), None);
        assert_eq!(Sealer::from_key(&[8u8; 32]).open(&sealed), None);
        assert_eq!(s.open(""), Some(String::new()));
        assert_eq!(mask("abcdefgh"), "abcd****");
    }

    #[test]
    fn key_file_is_made_once_and_private() {
        let dir = std::env::temp_dir().join(format!("cm-secret-{}", crate::random_token(6)));
        let a = Sealer::load(&dir).unwrap();
        let b = Sealer::load(&dir).unwrap();
        assert_eq!(b.open(&a.seal("x")).as_deref(), Some("x"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("secret.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
