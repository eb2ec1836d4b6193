//! Input rules of SPEC §5 "Account and login".

use crate::i18n::Msg;

/// A rule broken by one field: the field name and the message naming the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub field: &'static str,
    pub msg: Msg,
    /// The message's placeholders besides `{field}` (e.g. `max`).
    pub args: Vec<(&'static str, String)>,
}

fn bad(field: &'static str, msg: Msg) -> Result<(), Invalid> {
    Err(Invalid {
        field,
        msg,
        args: vec![],
    })
}

/// A new password's least characters and most bytes.
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX_BYTES: usize = 128;
/// A mobile number's digits.
pub const MOBILE_LEN: usize = 11;
/// A username's fewest and most characters (ASCII letters, digits, `_` and `-`).
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 32;
/// A user's display name and a merchant's name, in characters.
pub const NICKNAME_MAX: usize = 32;
pub const MERCHANT_NAME_MAX: usize = 50;
/// What an SMS code is sent for.

/// New password: 8+ characters with letters and digits; the confirmation must match.
pub fn new_password(password: &str, confirm: &str) -> Result<(), Invalid> {
    let long_enough =
        password.chars().count() >= PASSWORD_MIN && password.len() <= PASSWORD_MAX_BYTES;
    let letters = password.chars().any(|c| c.is_ascii_alphabetic());
    let digits = password.chars().any(|c| c.is_ascii_digit());
    if !(long_enough && letters && digits) {
        return bad("password", Msg::PasswordWeak);
    }
    if password != confirm {
        return bad("password_confirm", Msg::PasswordMismatch);
    }
    Ok(())
}

/// Mainland China mobile numbers: 11 digits starting 1[3-9].
pub fn mobile(m: &str) -> Result<(), Invalid> {
    let b = m.as_bytes();
    let ok = b.len() == MOBILE_LEN
        && b[0] == b'1'
        && (b'3'..=b'9').contains(&b[1])
        && b.iter().all(u8::is_ascii_digit);
    if ok {
        Ok(())
    } else {
        bad("mobile", Msg::MobileInvalid)
    }
}

pub fn username(u: &str) -> Result<(), Invalid> {
    let ok = (USERNAME_MIN..=USERNAME_MAX).contains(&u.len())
        && u.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        bad("username", Msg::UsernameInvalid)
    }
}

pub fn required(field: &'static str, v: &str) -> Result<(), Invalid> {
    if v.trim().is_empty() {
        bad(field, Msg::Required)
    } else {
        Ok(())
    }
}

/// Characters that reorder how text is shown: directional marks, embeddings, overrides and isolates.
/// A name like "invoice\u{202E}4pm.exe" displays as "invoiceexe.mp4".
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Control characters (NUL, BEL, ESC, DEL, the C1 range): a terminal, a subtitle renderer or a
/// platform acts on them instead of showing them. Line breaks and tabs are text.
pub fn is_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\n' | '\r' | '\t')
}

/// The rule for every free text a person writes that is shown again (names, titles, topics, words,
/// the text read aloud and its subtitles): no control characters and no bidi controls (a file name
/// "invoice\u{202E}4pm.exe" would display as "invoiceexe.mp4"). Refused, naming the field, not
/// quietly cleaned.
pub fn plain_text(field: &'static str, v: &str) -> Result<(), Invalid> {
    if let Some(c) = v.chars().find(|c| is_control(*c)) {
        return Err(Invalid {
            field,
            msg: Msg::ControlChar,
            args: vec![("char", format!("U+{:04X}", c as u32))],
        });
    }
    if v.chars().any(is_bidi_control) {
        bad(field, Msg::NameBidi)
    } else {
        Ok(())
    }
}

pub fn max_chars(field: &'static str, v: &str, max: usize) -> Result<(), Invalid> {
    if v.chars().count() > max {
        Err(Invalid {
            field,
            msg: Msg::TooLong,
            args: vec![("max", max.to_string())],
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_controls_are_refused() {
        for c in [
            '\u{200E}', '\u{200F}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            let name = format!("invoice{c}4pm.exe");
            assert_eq!(
                plain_text("file", &name).unwrap_err().msg,
                Msg::NameBidi,
                "{c:?}"
            );
        }
        assert!(plain_text("file", "发布 clip-01 (final).mp4").is_ok());
        assert!(plain_text("file", "\u{2065}\u{202F}\u{200D}.png").is_ok());
    }

    #[test]
    fn control_characters_are_refused_naming_the_field() {
        for (c, code) in [
            ('\0', "U+0000"),
            ('\u{7}', "U+0007"),
            ('\u{1b}', "U+001B"),
            ('\u{7f}', "U+007F"),
            ('\u{85}', "U+0085"),
        ] {
            let e = plain_text("text", &format!("买一送一{c}[31m")).unwrap_err();
            assert_eq!((e.field, e.msg), ("text", Msg::ControlChar), "{c:?}");
            assert_eq!(e.args, vec![("char", code.to_string())]);
        }
        assert!(plain_text("text", "第一行\n第二行\t（完）\r\n").is_ok());
    }

    #[test]
    fn password_rules() {
        assert!(new_password("abc12345", "abc12345").is_ok());
        assert_eq!(
            new_password("abc1234", "abc1234").unwrap_err().msg,
            Msg::PasswordWeak
        );
        assert_eq!(
            new_password("abcdefgh", "abcdefgh").unwrap_err().msg,
            Msg::PasswordWeak
        );
        assert_eq!(
            new_password("12345678", "12345678").unwrap_err().msg,
            Msg::PasswordWeak
        );
        let e = new_password("abc12345", "abc12346").unwrap_err();
        assert_eq!(
            (e.field, e.msg),
            ("password_confirm", Msg::PasswordMismatch)
        );
    }

    #[test]
    fn mobile_rules() {
        assert!(mobile("13800138000").is_ok());
        for m in [
            "12800138000",
            "1380013800",
            "138001380001",
            "1380013800a",
            "",
        ] {
            assert!(mobile(m).is_err(), "{m}");
        }
    }

    #[test]
    fn username_rules() {
        assert!(username("demo").is_ok());
        assert!(username("ab").is_err());
        assert!(username("has space").is_err());
        assert!(username("../x").is_err());
    }
}
