//! `text_enum!`: the one way a word the database stores (a state, a kind, a mode) becomes a Rust
//! enum. Each variant names its stored text; the macro gives the enum `as_str`/`parse`/`ALL`,
//! `Display`, `FromStr`, `TryFrom<String>` (what store rows decode through:
//! `#[sqlx(try_from = "String")]`), serde as that text, and a `utoipa::ToSchema` that is a string
//! `enum` of the texts, so the OpenAPI document and the console's types list the same words.
//!
//! ```ignore
//! domain::text_enum! {
//!     /// A coupon's state.
//!     pub enum CouponState {
//!         Issued = "issued",
//!         Redeemed = "redeemed",
//!     }
//! }
//! ```
//! Older spellings a request may still send follow the text (`Segmented = "segmented" | "jieba"`):
//! they parse, but only the first is written and listed in the schema.
//! A second name after `as` names the schema when two enums share a Rust name
//! (`pub enum State as "OneTouchState" { … }`).

/// A stored text that is none of an enum's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownText {
    /// The enum's name.
    pub of: &'static str,
    pub text: String,
}

impl std::fmt::Display for UnknownText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown {} {:?}", self.of, self.text)
    }
}

impl std::error::Error for UnknownText {}

#[doc(hidden)]
pub use serde as __serde;
#[doc(hidden)]
pub use utoipa as __utoipa;

#[macro_export]
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident $(as $schema:literal)? {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal $(| $alias:literal)* ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        #[allow(dead_code)]
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];

            /// The stored text.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }

            /// The value of a stored text (or of an older spelling listed after `|`); None for any
            /// other text.
            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $( $text $(| $alias)* => Some($name::$variant), )+
                    _ => None,
                }
            }

            /// The schema's name in the OpenAPI document.
            pub const SCHEMA: &'static str = $crate::text_enum!(@name $name $($schema)?);
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::text_enum::UnknownText;
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                $name::parse(s).ok_or_else(|| $crate::text_enum::UnknownText {
                    of: stringify!($name),
                    text: s.to_string(),
                })
            }
        }

        impl TryFrom<String> for $name {
            type Error = $crate::text_enum::UnknownText;
            fn try_from(s: String) -> Result<$name, Self::Error> {
                s.parse()
            }
        }

        impl TryFrom<&str> for $name {
            type Error = $crate::text_enum::UnknownText;
            fn try_from(s: &str) -> Result<$name, Self::Error> {
                s.parse()
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.as_str().to_string()
            }
        }

        impl $crate::text_enum::__serde::Serialize for $name {
            fn serialize<S: $crate::text_enum::__serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::text_enum::__serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::text_enum::__serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let s = <std::borrow::Cow<'de, str> as $crate::text_enum::__serde::Deserialize>::deserialize(d)?;
                $name::parse(&s).ok_or_else(|| {
                    <D::Error as $crate::text_enum::__serde::de::Error>::unknown_variant(
                        &s,
                        &[$($text),+],
                    )
                })
            }
        }

        impl $crate::text_enum::__utoipa::PartialSchema for $name {
            fn schema() -> $crate::text_enum::__utoipa::openapi::RefOr<$crate::text_enum::__utoipa::openapi::schema::Schema> {
                use $crate::text_enum::__utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
                $crate::text_enum::__utoipa::openapi::RefOr::T(Schema::Object(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some([$($text),+]))
                        .build(),
                ))
            }
        }

        impl $crate::text_enum::__utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name::SCHEMA)
            }
        }
    };
    (@name $name:ident) => { stringify!($name) };
    (@name $name:ident $schema:literal) => { $schema };
}

#[cfg(test)]
mod tests {
    crate::text_enum! {
        /// A test enum.
        enum Light {
            Red = "red",
            /// Amber.
            Amber = "amber_light",
            Off = "" | "none",
        }
    }

    crate::text_enum! {
        enum Other as "OtherLight" { On = "on" }
    }

    #[test]
    fn texts_round_trip() {
        for l in Light::ALL {
            assert_eq!(Light::parse(l.as_str()), Some(l));
            assert_eq!(l.to_string().parse::<Light>(), Ok(l));
            assert_eq!(Light::try_from(String::from(l)), Ok(l));
            let json = serde_json::to_string(&l).unwrap();
            assert_eq!(json, format!("\"{}\"", l.as_str()));
            assert_eq!(serde_json::from_str::<Light>(&json).unwrap(), l);
        }
        assert!("green".parse::<Light>().is_err());
        assert_eq!(Light::parse("none"), Some(Light::Off));
        assert!(serde_json::from_str::<Light>("\"green\"").is_err());
        assert_eq!(Other::On.as_str(), "on");
    }

    #[test]
    fn schema_is_a_string_enum() {
        use utoipa::{PartialSchema, ToSchema};
        let v = serde_json::to_value(Light::schema()).unwrap();
        assert_eq!(v["type"], "string");
        assert_eq!(v["enum"], serde_json::json!(["red", "amber_light", ""]));
        assert_eq!(Light::name(), "Light");
        assert_eq!(Other::name(), "OtherLight");
    }
}
