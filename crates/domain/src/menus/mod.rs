//! The console's menu table, declared once, each area's menus in a file of the area's name (as the
//! console's `web/src/router/modules/<area>.ts`; `web/src/router/menus.test.ts` compares the two
//! through `web/src/router/menus.json`). Seeded into the `menus` table at start; `/ajax/initAdmin`
//! builds each caller's tree from it, and a staff member's grants are the `grants` of the menus
//! the merchant authorized. A module that does not exist yet has no entry here.

#[derive(Debug, Clone, Copy)]
pub struct MenuDef {
    /// Console route, also the stable key.
    pub path: &'static str,
    pub parent: Option<&'static str>,
    /// i18n title key used by the console.
    pub name: &'static str,
    pub icon: &'static str,
    pub hidden: bool,
    /// Role Administrator only.
    pub admin: bool,
    pub vip: bool,
    pub sort: i64,
    /// Permission patterns the menu grants to a staff member.
    pub grants: &'static [&'static str],
}

const fn menu(
    path: &'static str,
    name: &'static str,
    icon: &'static str,
    sort: i64,
    grants: &'static [&'static str],
) -> MenuDef {
    MenuDef {
        path,
        parent: None,
        name,
        icon,
        hidden: false,
        admin: false,
        vip: false,
        sort,
        grants,
    }
}

pub mod activities;
pub mod ai;
pub mod auth;
pub mod clip;
pub mod content;
pub mod engagement;
pub mod materials;
pub mod matrix;
pub mod nfc;
pub mod reports;
pub mod seo;
pub mod system;

/// Each area's menus, beside the area's name (the same names as `web/src/router/modules`).
pub const AREAS: &[(&str, &[MenuDef])] = &[
    ("reports", reports::MENUS),
    ("materials", materials::MENUS),
    ("clip", clip::MENUS),
    ("matrix", matrix::MENUS),
    ("activities", activities::MENUS),
    ("engagement", engagement::MENUS),
    ("seo", seo::MENUS),
    ("ai", ai::MENUS),
    ("nfc", nfc::MENUS),
    ("content", content::MENUS),
    ("auth", auth::MENUS),
    ("system", system::MENUS),
];

static ALL: std::sync::LazyLock<Vec<&'static MenuDef>> = std::sync::LazyLock::new(|| {
    let mut all: Vec<&'static MenuDef> = AREAS.iter().flat_map(|(_, m)| m.iter()).collect();
    // In the console's order; "the first declared" (e.g. the function a permission belongs to)
    // means the first in this order.
    all.sort_by_key(|m| (m.sort, m.path));
    all
});

/// Every declared menu, by `sort` (then path).
pub fn all() -> &'static [&'static MenuDef] {
    &ALL
}
pub fn find(path: &str) -> Option<&'static MenuDef> {
    all().iter().copied().find(|m| m.path == path)
}

/// The area (`AREAS`' name) a menu is declared in.
pub fn area_of_menu(path: &str) -> Option<&'static str> {
    AREAS
        .iter()
        .find(|(_, menus)| menus.iter().any(|m| m.path == path))
        .map(|(area, _)| *area)
}

/// The menu a permission belongs to: the one whose matching grant is the most specific (fewest `*`),
/// the first declared (in the console's order) on a tie.
pub fn menu_of(perm: &str) -> Option<&'static MenuDef> {
    all()
        .iter()
        .filter_map(|m| {
            m.grants
                .iter()
                .filter(|g| crate::permission::matches(g, perm))
                .map(|g| g.matches('*').count())
                .min()
                .map(|stars| (stars, *m))
        })
        .min_by_key(|(stars, _)| *stars)
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The console's copy of the menu table (`web/src/router/menus.json`), which
    /// `web/src/router/menus.test.ts` compares with the route modules (path, permission, admin flag,
    /// icon). `CLIPMATRIX_WRITE_MENUS=1 cargo test -p domain menus_json` writes it.
    #[test]
    fn menus_json_is_current() {
        let menus: Vec<serde_json::Value> = AREAS
            .iter()
            .flat_map(|(area, menus)| {
                menus.iter().map(move |m| {
                    serde_json::json!({
                        "area": area,
                        "path": m.path,
                        "parent": m.parent,
                        "name": m.name,
                        "icon": m.icon,
                        "admin": m.admin,
                        "hidden": m.hidden,
                        "grants": m.grants,
                    })
                })
            })
            .collect();
        let want = serde_json::to_string_pretty(&menus).expect("menus serialize") + "\n";
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../web/src/router/menus.json"
        );
        if std::env::var_os("CLIPMATRIX_WRITE_MENUS").is_some() {
            std::fs::write(path, &want).expect("web/src/router/menus.json is writable");
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "web/src/router/menus.json is not domain::menus: run \
             CLIPMATRIX_WRITE_MENUS=1 cargo test -p domain menus_json"
        );
    }

    #[test]
    fn parents_exist_and_paths_are_unique() {
        for m in all() {
            if let Some(p) = m.parent {
                assert!(find(p).is_some(), "{} has no parent {p}", m.path);
            }
            assert_eq!(all().iter().filter(|o| o.path == m.path).count(), 1);
        }
    }

    /// Every call a material page makes is granted by its menu (a staff member given only that menu
    /// can use the whole page), and the parent grants nothing of its own.
    #[test]
    fn material_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let pages: &[(&str, &[&str])] = &[
            (
                "/video",
                &[
                    "/media.merchant_much_resource/video_resource_group_index",
                    "/media.merchant_much_resource/resource_group_tree",
                    "/media.merchant_much_resource/resource_group_add",
                    "/media.merchant_much_resource/edit_resource_group_name",
                    "/media.merchant_much_resource/resource_group_delete",
                    "/media.merchant_much_resource/resource_classify_index",
                    "/media.merchant_much_resource/resource_add_classify",
                    "/media.merchant_much_resource/edit_classify_name",
                    "/media.merchant_much_resource/resource_delete_classify",
                    "/media.merchant_much_resource/video_resource_detail",
                    "/media.merchant_much_resource/add_resource",
                    "/media.merchant_much_resource/resource_delete",
                    "/media.merchant_much_resource/asr_add",
                    "/media.merchant_much_resource/get_asr_timeline",
                    "/media.merchant_much_resource/save_asr_times",
                    "/ajax/ossUpload",
                    "/ajax/getYunData",
                    "/ajax/upload_chunk",
                    "/ajax/add_upfile",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/speak",
                &[
                    "/bpdr.merchant_mediainfo/getVoiceName",
                    "/bpdr.merchant_mediainfo/upload",
                    "/media.merchant_producing_upfile/delete",
                    "/media.merchant_much_resource/asr_add",
                    "/media.merchant_much_resource/get_asr_timeline",
                    "/media.merchant_much_resource/save_asr_times",
                    "/ajax/ossUpload",
                    "/ajax/add_upfile",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/music",
                &[
                    "/media.merchant_producing_upfile/music_index",
                    "/media.merchant_producing_upfile/system_music_index",
                    "/media.merchant_producing_upfile/add",
                    "/media.merchant_producing_upfile/delete",
                    "/bpdr.merchant_file_type/audio_index",
                    "/bpdr.merchant_file_type/add",
                    "/bpdr.merchant_file_type/edit",
                    "/bpdr.merchant_file_type/delete",
                    "/media.merchant_file_type/add",
                    "/clip.merchant_music_library/save",
                    "/ajax/ossUpload",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/image",
                &[
                    "/media.merchant_producing_upfile/image_index",
                    "/media.merchant_producing_upfile/add",
                    "/media.merchant_producing_upfile/delete",
                    "/bpdr.merchant_file_type/image_tree",
                    "/bpdr.merchant_file_type/add",
                    "/bpdr.merchant_file_type/edit",
                    "/bpdr.merchant_file_type/delete",
                    "/clip.merchant_image_library/save",
                    "/ajax/edit_upfile",
                ],
            ),
            (
                "/font",
                &[
                    "/media.merchant_font_style/index",
                    "/media.merchant_font_style/add",
                    "/media.merchant_font_style/edit",
                    "/media.merchant_font_style/delete",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/material"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call} should need a permission");
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        assert!(find("/material").is_some_and(|m| m.grants.is_empty()));
        // Each library page writes into its own library only.
        let libraries = [
            ("/video", "resource"),
            ("/speak", "voice"),
            ("/music", "music"),
            ("/image", "image"),
            ("/font", "font"),
        ];
        for (path, own) in libraries {
            let grants: Vec<String> = find(path)
                .unwrap()
                .grants
                .iter()
                .map(|g| g.to_string())
                .collect();
            for (_, lib) in libraries {
                let perm = crate::actions::library_permission(lib);
                assert_eq!(granted(&grants, &perm), lib == own, "{path} writing {lib}");
            }
        }
        let music = find("/system/music").expect("/system/music is declared");
        assert!(music.admin && music.parent == Some("/system"));
        assert!(matches!(access_for("/system/music/add"), Access::Operator));
    }

    /// The quick-mix page's calls (its project settings read the libraries) and the finished-video
    /// library's calls are granted by their menus; the /clip parent grants nothing of its own.
    #[test]
    fn matrix_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let account_calls: &[&str] = &[
            "/task.merchant_group_user/index",
            "/task.merchant_group_user/get_qrCode",
            "/task.merchant_group_user/xhsLogin",
            "/task.merchant_group_user/bjhLogin",
            "/task.merchant_group_user/renew",
            "/task.merchant_group_user/update_address",
            "/task.merchant_group_user/expire_user",
            "/task.merchant_matrix_group/index",
            "/task.merchant_forward_task/xhs_forward_config",
        ];
        let pages: &[(&str, &[&str])] = &[
            ("/account_auth", account_calls),
            ("/auth_mature", account_calls),
            ("/user_library", account_calls),
            (
                "/account_classify",
                &[
                    "/task.merchant_matrix_group/add",
                    "/task.merchant_matrix_group/delete",
                ],
            ),
            (
                "/send_management",
                &[
                    "/task.merchant_forward_task/dy_add",
                    "/task.merchant_forward_task/forward_video",
                    "/task.merchant_forward_task/manual_forward",
                    "/matrix.merchant_publish_management/getAccountGroup",
                    "/bpdr.merchant_aite_users/index",
                    "/task.merchant_matrix_group/index",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/matrix"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call}")
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        // A staff member with only the groups page cannot authorize or publish.
        let g: Vec<String> = find("/account_classify")
            .unwrap()
            .grants
            .iter()
            .map(|g| g.to_string())
            .collect();
        for call in [
            "/task.merchant_group_user/get_qrCode",
            "/task.merchant_forward_task/dy_add",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!()
            };
            assert!(!granted(&g, &p));
        }
        assert!(find("/auditCheck").is_some_and(|m| m.admin));
        assert!(find("/system/app").is_some_and(|m| m.admin));
    }

    #[test]
    fn clip_menus_grant_their_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let pages: &[(&str, &[&str])] = &[
            (
                "/normal_mode",
                &[
                    "/clip.merchant_much_clip/index",
                    "/clip.merchant_much_clip/add",
                    "/clip.merchant_much_clip/modify",
                    "/clip.merchant_much_clip/add_copy",
                    "/clip.merchant_much_clip/edit_status",
                    "/clip.merchant_much_clip/delete",
                    "/clip.merchant_much_clip/get_resource_group",
                    "/clip.merchant_much_clip/get_resource",
                    "/clip.merchant_much_clip/preview_video",
                    "/clip.merchant_much_clip/add_video",
                    "/media.merchant_producing_upfile/music_index",
                    "/media.merchant_producing_upfile/system_music_index",
                    "/bpdr.merchant_mediainfo/getVoiceName",
                    "/media.merchant_font_style/getAll",
                ],
            ),
            (
                "/high_modeVisualization_clip",
                &[
                    "/clip.merchant_senior_clip/index",
                    "/clip.merchant_senior_clip/modify",
                    "/clip.merchant_senior_clip/delete",
                    "/clip.merchant_much_clip/get_resource_group",
                    "/clip.merchant_much_clip/get_resource",
                    "/clip.merchant_much_clip/preview_video",
                    "/clip.merchant_much_clip/add_video",
                    "/clip.merchant_much_clip/add_copy",
                    "/clip.merchant_much_clip/edit_status",
                    "/media.merchant_font_style/getAll",
                ],
            ),
            (
                "/piece_rep",
                &[
                    "/clip.merchant_video_library/index",
                    "/clip.merchant_video_library/video_index",
                    "/clip.merchant_video_library/video_delete",
                    "/clip.merchant_video_library/video_use",
                    "/clip.merchant_video_library/job_video",
                    "/clip.merchant_video_library/continue_add_video",
                    "/clip.merchant_video_library/add",
                    "/clip.merchant_video_library/job_video_add_all",
                    "/media.merchant_much_resource/index",
                ],
            ),
        ];
        for (path, calls) in pages {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/clip"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in *calls {
                let Access::Permission(p) = access_for(call) else {
                    panic!("{call} should need a permission");
                };
                assert!(granted(&grants, &p), "{path} does not grant {call} ({p})");
            }
        }
        assert!(find("/clip").is_some_and(|m| m.grants.is_empty() && m.sort == 200));
    }

    #[test]
    fn batch_slice_menu_grants_its_pages_calls() {
        use crate::permission::{Access, access_for, granted};
        let m = find("/batch_slice").expect("/batch_slice is declared");
        assert_eq!(m.parent, Some("/clip"));
        let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
        for call in [
            "/clip.merchant_visual_editing/index",
            "/clip.merchant_visual_editing/create_project",
            "/clip.merchant_visual_editing/delete",
            "/clip.merchant_visual_editing/job_export",
            "/clip.merchant_visual_editing/video_library",
            "/clip.merchant_visual_editing/video_delete",
            "/clip.merchant_visual_editing/job_video_add_all",
            "/clip.merchant_project/index",
            "/clip.merchant_project/add_video",
            "/clip.merchant_project/delete",
            "/clip.merchant_project/modify",
            "/clip.merchant_project/job_video",
            "/clip.merchant_project/job_delete",
            "/media.merchant_much_resource/video_resource_detail",
            "/media.merchant_much_resource/video_resource_group_index",
            "/media.merchant_much_resource/get_asr_timeline",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!("{call} should need a permission");
            };
            assert!(
                granted(&grants, &p),
                "/batch_slice does not grant {call} ({p})"
            );
        }
        // Not the quick-mix projects or the finished-video library.
        for call in [
            "/clip.merchant_much_clip/add_video",
            "/clip.merchant_video_library/video_delete",
        ] {
            let Access::Permission(p) = access_for(call) else {
                panic!()
            };
            assert!(!granted(&grants, &p), "{call}");
        }
    }

    /// The four course pages hang under /courses and grant their reads; content is written by the
    /// operator only (/system/content).
    #[test]
    fn course_menus_grant_their_reads() {
        use crate::permission::{Access, access_for, of_path};
        for path in ["/account", "/Popular", "/course", "/shot_tutorial"] {
            let m = find(path).unwrap_or_else(|| panic!("{path} is not declared"));
            assert_eq!(m.parent, Some("/courses"));
            let grants: Vec<String> = m.grants.iter().map(|g| g.to_string()).collect();
            for call in ["/index/getIndexCourseList", "/index/getCourseInfo"] {
                assert!(
                    crate::permission::granted(&grants, &of_path(call)),
                    "{path} {call}"
                );
                assert_eq!(access_for(call), Access::SignedIn);
            }
        }
        let content = find("/system/content").expect("/system/content is declared");
        assert!(content.admin && content.parent == Some("/system"));
        assert_eq!(access_for("/system/content/course_add"), Access::Operator);
    }
}
