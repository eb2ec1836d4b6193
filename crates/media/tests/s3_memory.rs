//! A 300 MB upload to S3 (moto) grows this process's memory by at most 64 MB: the upload streams in
//! parts (`media::storage::s3::PART`, `IN_FLIGHT` at a time). Its own test binary, so no other test's memory
//! counts.

mod moto;

use media::Storage;
use media::storage::Body;
use media::storage::s3::S3Settings;

/// `len` bytes produced as they are read, from one 64 KiB block.
struct Zeros {
    left: u64,
    block: Vec<u8>,
}

impl tokio::io::AsyncRead for Zeros {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let n = (buf.remaining() as u64)
            .min(self.left)
            .min(self.block.len() as u64) as usize;
        buf.put_slice(&self.block[..n]);
        self.left -= n as u64;
        std::task::Poll::Ready(Ok(()))
    }
}

/// (current, peak) resident memory of this process, in bytes.
fn rss() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb = |k: &str| -> u64 {
        s.lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    (kb("VmRSS:") * 1024, kb("VmHWM:") * 1024)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_300_mb_upload_holds_at_most_64_mb() {
    let m = moto::Moto::start();
    m.bucket("media").await;
    let dir = std::env::temp_dir().join(format!("cm-s3mem-{}", std::process::id()));
    let s = Storage::open_with(
        "s3://media/mem",
        dir.join("work"),
        &S3Settings {
            endpoint: Some(m.endpoint.clone()),
            access_key_id: Some("test".into()),
            secret_access_key: Some("test".into()),
            cache_bytes: 1 << 20,
            ..Default::default()
        },
    )
    .unwrap();
    s.check().await.unwrap();
    let (before, _) = rss();
    let size = 300u64 << 20;
    let body: Body = Box::pin(Zeros {
        left: size,
        block: vec![7u8; 64 << 10],
    });
    assert_eq!(
        s.store().put_stream("m/1/big.mp4", body).await.unwrap(),
        size
    );
    let (_, peak) = rss();
    let grown = peak.saturating_sub(before);
    eprintln!("300 MB S3 upload: peak memory grew by {} MB", grown >> 20);
    assert!(grown <= 64 << 20, "memory grew by {} MB", grown >> 20);
    assert_eq!(
        s.get("m/1/big.mp4", Some((size - 3, None)))
            .await
            .unwrap()
            .size,
        size
    );
    s.delete("m/1/big.mp4").await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
