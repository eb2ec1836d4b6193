// API latency of the signed-in path (token -> session -> permission check -> query) against /healthz
// (one trivial query) measured in the same run. Prints `bench: <name> <value> <unit>` lines.
// Usage: make bench   (CLIPMATRIX_BIN overrides the binary; default target/release/clipmatrix)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.CLIPMATRIX_BIN || join(root, 'target/release/clipmatrix');
const N = Number(process.env.BENCH_N || 2000);
const CONCURRENCY = 8;

const port = await new Promise((res) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const data = mkdtempSync(join(tmpdir(), 'clipmatrix-bench-'));
const proc = spawn(bin, ['serve'], {
  env: { ...process.env, CLIPMATRIX_DATA_DIR: data, CLIPMATRIX_LISTEN: `127.0.0.1:${port}`, CLIPMATRIX_DEMO_PASSWORD: 'Demo12345', RUST_LOG: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${base}/healthz`)).ok) break; } catch {}
    if (i > 200) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const login = await (await fetch(`${base}/api/login/auth`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_type: 1, username: 'demo', password: 'Demo12345', agree: true }),
  })).json();
  const headers = { authorization: `Bearer ${login.data.token}` };

  async function measure(path, opts = {}) {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < N) {
        const r = await fetch(base + path, opts);
        if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
        await r.arrayBuffer();
      }
    }));
    return (performance.now() - t0) / N; // ms per request at this concurrency
  }
  await measure('/healthz'); // warm-up
  const health = await measure('/healthz');
  const menu = await measure('/api/ajax/initAdmin', { headers });
  const list = await measure('/api/user.merchant_user_sub/list', { headers });
  console.log(`bench: healthz_baseline ${(1000 / health).toFixed(0)} req/s`);
  console.log(`bench: init_admin ${(1000 / menu).toFixed(0)} req/s`);
  console.log(`bench: init_admin_vs_baseline ${(menu / health).toFixed(2)} x`);
  console.log(`bench: staff_list ${(1000 / list).toFixed(0)} req/s`);
  console.log(`bench: staff_list_vs_baseline ${(list / health).toFixed(2)} x`);
} finally {
  proc.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
