//! A browser driver against one of the sandbox's creator consoles (`{sandbox}/console/{code}`),
//! driving the real `/usr/bin/chromium` headless, with the console's control calls.

use super::Sbx;
use platforms::browser::{BrowserAdapter, Driver, DriverConfig, Flow, ProfileStore};
use platforms::{Adapter, Creds, Platform, SessionState};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A driver on a fresh folder of its own; its browsers are swept when it goes.
pub struct Rig {
    pub sbx: Sbx,
    pub platform: Platform,
    pub driver: Driver,
    pub ad: BrowserAdapter,
    pub dir: PathBuf,
}

impl Drop for Rig {
    fn drop(&mut self) {
        platforms::browser::driver::sweep(&self.driver.config().profiles_dir);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Where playwright-core is installed in this checkout.
fn node_modules() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for d in ["scripts/browser/node_modules", "e2e/node_modules"] {
        let p = root.join(d);
        if p.join("playwright-core").exists() {
            return p;
        }
    }
    panic!("playwright-core is not installed: run scripts/install-deps.sh test");
}

/// A sandbox, a driver with at most `max_browsers`, and the adapter of the flow `make` builds on
/// the sandbox console's base URL.
pub async fn rig(
    platform: Platform,
    max_browsers: usize,
    make: impl FnOnce(String, domain::clock::Clock) -> Arc<dyn Flow>,
) -> Rig {
    rig_with(platform, max_browsers, Duration::from_secs(15), make).await
}

/// [`rig`] with the driver's `hang_grace` (how long past a request's timeout a sidecar counts as hung).
pub async fn rig_with(
    platform: Platform,
    max_browsers: usize,
    hang_grace: Duration,
    make: impl FnOnce(String, domain::clock::Clock) -> Arc<dyn Flow>,
) -> Rig {
    let sbx = super::start(|_| {}).await;
    let dir = temp_dir();
    let driver = driver_in(&dir, max_browsers, hang_grace);
    let base = format!("{}/console/{}", sbx.base, platform.code());
    let flow = make(base, sbx.clock.clone());
    let ad = BrowserAdapter::new(flow, driver.clone(), sbx.clock.clone());
    Rig {
        sbx,
        platform,
        driver,
        ad,
        dir,
    }
}

/// Another worker node on the same sandbox: a driver on a folder of its own (no profiles from the
/// rig's), the same console flow.
pub struct Node {
    pub driver: Driver,
    pub ad: BrowserAdapter,
    pub dir: PathBuf,
}

impl Drop for Node {
    fn drop(&mut self) {
        platforms::browser::driver::sweep(&self.driver.config().profiles_dir);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn driver_in(dir: &std::path::Path, max_browsers: usize, hang_grace: Duration) -> Driver {
    std::fs::create_dir_all(dir).unwrap();
    std::os::unix::fs::symlink(node_modules(), dir.join("node_modules")).unwrap();
    let cfg = DriverConfig {
        max_browsers,
        human_delay_ms: 5,
        hang_grace,
        ..DriverConfig::for_data_dir(dir)
    };
    let driver = Driver::new(DriverConfig {
        script_dir: dir.to_path_buf(),
        profiles_dir: dir.join("profiles"),
        ..cfg
    });
    driver.check().expect("driver installed");
    driver
}

fn temp_dir() -> PathBuf {
    std::env::temp_dir().join(format!(
        "cm-browser-{}-{:x}",
        std::process::id(),
        rand::random::<u64>()
    ))
}

impl Rig {
    /// The rig's adapter keeping logins in `store` and driving accounts under its leases.
    pub fn share_profiles(&mut self, store: Arc<dyn ProfileStore>) {
        let flow = self.ad.flow().clone();
        self.ad = BrowserAdapter::new(flow, self.driver.clone(), self.sbx.clock.clone())
            .with_profiles(store);
    }

    /// A second node on this sandbox, sharing `store` when given.
    pub fn node(&self, store: Option<Arc<dyn ProfileStore>>) -> Node {
        let dir = temp_dir();
        let driver = driver_in(&dir, 2, Duration::from_secs(15));
        let ad = BrowserAdapter::new(
            self.ad.flow().clone(),
            driver.clone(),
            self.sbx.clock.clone(),
        );
        let ad = match store {
            Some(s) => ad.with_profiles(s),
            None => ad,
        };
        Node { driver, ad, dir }
    }

    fn control_url(&self, path: &str) -> String {
        format!(
            "{}/_control/console/{}/{path}",
            self.sbx.base,
            self.platform.code()
        )
    }

    /// `POST /_control/console/{code}/{path}` (scan, faults).
    pub async fn control(&self, path: &str, body: Value) -> Value {
        let r = self
            .sbx
            .http
            .post(self.control_url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{path}: {}", r.status());
        r.json().await.unwrap()
    }

    /// `GET /_control/console/{code}/{path}` (captcha).
    pub async fn control_get(&self, path: &str) -> Value {
        let r = self
            .sbx
            .http
            .get(self.control_url(path))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{path}: {}", r.status());
        r.json().await.unwrap()
    }

    /// Every publish the console received, oldest first.
    pub async fn received(&self) -> Vec<Value> {
        self.record().await["received"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The console's record: `received` and what else it counts (uploads begun).
    pub async fn record(&self) -> Value {
        self.sbx
            .http
            .get(self.control_url("received"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Polls until the login leaves `QrPending`, as the console's dialog does: a poll answers at
    /// once while the QR is still up, and the page's own status tick may take seconds under load
    /// to notice the scan — so the bound is time, not a count of polls.
    pub async fn poll_until_not_pending(&self, login_id: &str, sms: Option<&str>) -> SessionState {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            let s = self.ad.poll_qr_login(login_id, sms).await.unwrap();
            if s != SessionState::QrPending {
                return s;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        panic!("the login stayed pending for 30 s");
    }

    /// Solves the slider puzzle a login shows as its owner would, after one wrong place: the
    /// picture reaches us, a place far from the gap gets a new puzzle (still `SliderChallenge`),
    /// the new gap's place logs in. Answers the login's end state; the console counted 2 tries.
    pub async fn solve_slider(&self, login_id: &str) -> SessionState {
        let img = self
            .ad
            .challenge_image(login_id)
            .expect("the puzzle's picture");
        assert!(
            img.starts_with("data:image/png;base64,") && img.len() > 500,
            "{img:.60}"
        );
        let first = self.control_get("captcha").await;
        let (gap, track) = (
            first["gap"].as_u64().unwrap() as f64,
            first["track"].as_f64().unwrap(),
        );
        let wrong = if gap > track / 2.0 { 0.0 } else { 1.0 };
        self.ad.slide(login_id, wrong).await.unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while self.control_get("captcha").await["tries"] != 1 {
            assert!(
                std::time::Instant::now() < deadline,
                "the place never reached the console"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            self.ad.poll_qr_login(login_id, None).await.unwrap(),
            SessionState::SliderChallenge
        );
        let gap = self.control_get("captcha").await["gap"].as_u64().unwrap() as f64;
        self.ad.slide(login_id, gap / track).await.unwrap();
        let end = self.poll_until_not_pending(login_id, None).await;
        assert_eq!(self.control_get("captcha").await["tries"], 2);
        end
    }

    /// A logged-in account named `user`.
    pub async fn login(&self, user: &str) -> Creds {
        let qr = self.ad.start_qr_login().await.unwrap();
        self.control("scan", serde_json::json!({"user": user}))
            .await;
        let SessionState::LoggedIn { session } =
            self.poll_until_not_pending(&qr.login_id, None).await
        else {
            panic!("not logged in");
        };
        Creds {
            open_id: session.open_id,
            token: session.access_token,
            ..Default::default()
        }
    }

    /// A cover picture to upload of `kb` KiB (the consoles take the bytes as they come).
    pub fn cover(&self, kb: usize) -> PathBuf {
        let p = self
            .dir
            .join(format!("cover-{}.jpg", rand::random::<u32>()));
        std::fs::copy(self.video(kb), &p).unwrap();
        p
    }

    /// A file to upload of `kb` KiB.
    pub fn video(&self, kb: usize) -> PathBuf {
        let p = self.dir.join(format!("clip-{}.mp4", rand::random::<u32>()));
        let bytes: Vec<u8> = (0..kb * 1024).map(|i| (i * 31 % 251) as u8).collect();
        std::fs::write(&p, bytes).unwrap();
        p
    }
}
