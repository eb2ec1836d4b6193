//! A forwarding HTTP proxy on 127.0.0.1:0, enough for a browser fetching `http://` pages through it:
//! each connection's requests arrive in absolute form (`GET http://host:port/path HTTP/1.1`), which
//! it records and passes on byte for byte to that host (HTTP/1.1 servers take the absolute form).

use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub struct Proxy {
    pub url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Proxy {
    pub async fn start() -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(vec![]));
        let log = seen.clone();
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(forward(conn, log.clone()));
            }
        });
        Proxy { url, seen }
    }

    /// The request lines that went through, in order.
    pub fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

async fn forward(mut client: TcpStream, seen: Arc<Mutex<Vec<String>>>) {
    let mut head = vec![0u8; 8192];
    let n = match client.read(&mut head).await {
        Ok(n) if n > 0 => n,
        _ => return,
    };
    let text = String::from_utf8_lossy(&head[..n]).to_string();
    let line = text.lines().next().unwrap_or_default().to_string();
    // `GET http://127.0.0.1:port/path HTTP/1.1`: the target's authority.
    let Some(authority) = line
        .split(' ')
        .nth(1)
        .and_then(|u| u.strip_prefix("http://"))
        .and_then(|u| u.split('/').next())
        .map(str::to_string)
    else {
        let _ = client
            .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            .await;
        return;
    };
    seen.lock().unwrap().push(line);
    let Ok(mut upstream) = TcpStream::connect(&authority).await else {
        let _ = client
            .write_all(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n")
            .await;
        return;
    };
    if upstream.write_all(&head[..n]).await.is_err() {
        return;
    }
    // Later requests on a kept-alive connection go to the same host here (one sandbox): passed on
    // as they come, without their lines recorded.
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
}
