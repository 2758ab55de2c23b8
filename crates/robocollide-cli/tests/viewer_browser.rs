//! The interactive viewer in a real browser: headless Chromium opens the demo's `viewer.html`
//! (offline: the file makes no network requests), and the page's self-test (`#selftest`)
//! reports whether anything went wrong. Checked: no console errors or uncaught exceptions, the
//! WebGL canvas is not blank, and moving the slider changes the reported distance. A
//! screenshot is kept in `target/test-artifacts/viewer.png`.
//!
//! Needs `chromium` (Debian's package; `.ci/run` installs it and sets
//! `ROBOCOLLIDE_REQUIRE_BROWSER=1`, so CI fails rather than skips without it). Elsewhere the
//! test says it is skipped when no Chromium is found (`ROBOCOLLIDE_CHROMIUM` names one).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{robocollide, text};

fn chromium() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("ROBOCOLLIDE_CHROMIUM") {
        return Some(path.into());
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .map(PathBuf::from)
}

/// Runs headless Chromium on `url` with `extra` arguments; returns standard output.
fn headless(browser: &Path, url: &str, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            "--no-first-run",
            "--virtual-time-budget=10000",
            &format!("--user-data-dir={}", profile.path().display()),
        ])
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_demo_viewer_loads_draws_and_follows_the_slider_in_chromium() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var("ROBOCOLLIDE_REQUIRE_BROWSER").is_err(),
            "ROBOCOLLIDE_REQUIRE_BROWSER is set but no Chromium was found"
        );
        eprintln!("SKIPPED: no Chromium found (install Debian's `chromium`; .ci/run does)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let o = robocollide(&["demo", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let page = out.join("viewer.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: no network requests from the page (no remote URLs in its own parts).
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    let url = format!("file://{}", page.display());
    let dom = headless(&browser, &format!("{url}#selftest"), &["--dump-dom"]);
    let marker = "<pre id=\"selftest\">";
    let start = dom.find(marker).expect("the page ran its self-test") + marker.len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let result: serde_json::Value =
        serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).unwrap();
    assert_eq!(result["errors"], serde_json::json!([]), "{result}");
    assert!(
        result["coloured"].as_u64().unwrap() > 200,
        "blank canvas: {result}"
    );
    assert_ne!(result["before"], result["after"], "{result}");
    assert!(result["frames"].as_u64().unwrap() > 100, "{result}");
    // The screenshot, kept as a test artefact.
    let artefacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-artifacts");
    std::fs::create_dir_all(&artefacts).unwrap();
    let shot = artefacts.join("viewer.png");
    headless(
        &browser,
        &url,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,900",
        ],
    );
    let png = std::fs::read(&shot).expect("screenshot written");
    assert_eq!(&png[1..4], b"PNG");
    assert!(png.len() > 20_000, "screenshot of {} bytes", png.len());
}
