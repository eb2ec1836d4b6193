//! The event stream (`/api/events`) tells a staff member only of what their menus open: materials
//! of the libraries they may use, voice tasks with the AI voice menu.

use crate::common;

use common::*;
use serde_json::json;

/// `t`'s event stream, opened.
async fn open(app: &TestApp, t: &str) -> reqwest::Response {
    app.http
        .get(app.url("/api/events"))
        .bearer_auth(t)
        .send()
        .await
        .unwrap()
}

/// Reads an event stream until `want` (an event name and record id) has arrived and two idle ticks
/// followed it (so whatever else changed meanwhile was sent too); answers the whole text read.
async fn read_until(mut res: reqwest::Response, want: (&str, i64)) -> String {
    let (mut text, mut seen_at) = (String::new(), None);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {want:?} in\n{text}"
        );
        let chunk = tokio::time::timeout_at(deadline, res.chunk())
            .await
            .ok()
            .and_then(Result::ok)
            .flatten()
            .expect("the stream stays open");
        text.push_str(&String::from_utf8_lossy(&chunk));
        if seen_at.is_none() {
            seen_at = text.split("\n\n").position(|ev| {
                ev.contains(&format!("event: {}\n", want.0))
                    && ev.contains(&format!("\"id\":{}", want.1))
            });
        }
        if let Some(at) = seen_at
            && text
                .split("\n\n")
                .skip(at)
                .filter(|ev| ev.contains(": tick"))
                .count()
                >= 2
        {
            return text;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_hear_only_of_what_their_menus_open() {
    let app = TestApp::spawn_with(Backend::Sqlite, unreachable_cloud_tts).await;
    let t = app.demo().await;
    let speak = app.menu_id(&t, "/speak").await;
    let voice = app.menu_id(&t, "/ai_voice").await;
    for (name, menus) in [("clerk_speak", vec![speak]), ("clerk_ai", vec![voice])] {
        app.post(
            "/user.merchant_user_sub/add",
            Some(&t),
            json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": menus}),
        )
        .await
        .ok();
    }
    let speak_clerk = app.login(3, "clerk_speak", "abc12345").await;
    let ai_clerk = app.login(3, "clerk_ai", "abc12345").await;
    let (speak_stream, ai_stream, owner_stream) = (
        open(&app, &speak_clerk).await,
        open(&app, &ai_clerk).await,
        open(&app, &t).await,
    );
    // The owner uploads a voice material and queues a voice task.
    let wav = ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=440", "-t", "2"], "wav");
    let r = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            &t,
            &[("type", "voice")],
            "v.wav",
            wav,
        )
        .await;
    let material = r.ok()["id"].as_i64().unwrap();
    let task = app
        .post(
            "/ai.MerchantDub/putNlsTask",
            Some(&t),
            json!({"text": "你好。", "voice": "xiaoyun"}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let (heard_speak, heard_ai, heard_owner) = tokio::join!(
        read_until(speak_stream, ("media", material)),
        read_until(ai_stream, ("tts", task)),
        read_until(owner_stream, ("tts", task)),
    );
    assert!(!heard_speak.contains("event: tts"), "{heard_speak}");
    assert!(!heard_ai.contains("event: media"), "{heard_ai}");
    // The owner hears of everything.
    assert!(heard_owner.contains("event: media"), "{heard_owner}");
}
