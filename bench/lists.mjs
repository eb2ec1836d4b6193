// Lists as data grows: the operation log, materials, finished videos and release items of one merchant
// with 100k rows each on SQLite, 32 connections, against /healthz measured in the same run.
// Prints `bench: list_<entity>_100k_rps`, `..._p99_ms` and `..._vs_healthz` (time per request, x).
// Targets: >= 1,000 req/s and p99 < 50 ms each on 2 cores. Needs the sqlite3 command to seed the rows.
// Measured (2 cores shared, load ~6): log 2,674/s p99 17.7 ms; materials 2,274/s 21.6 ms; finished videos
// 1,890/s 28.6 ms; release items 2,293/s 19.1 ms; /healthz 8,417/s. Before: the log at 32.6k rows, 65/s.
// Usage: make bench   (CLIPMATRIX_BIN overrides the binary; BENCH_N requests per list, default 4000)
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.CLIPMATRIX_BIN || join(root, 'target/release/clipmatrix');
const N = Number(process.env.BENCH_N || 4000);
const ROWS = 100_000;
const CONNECTIONS = 32;

const port = await new Promise((res) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const data = mkdtempSync(join(tmpdir(), 'clipmatrix-bench-lists-'));
const env = { ...process.env, CLIPMATRIX_DATA_DIR: data, CLIPMATRIX_LISTEN: `127.0.0.1:${port}`, CLIPMATRIX_DEMO_PASSWORD: 'Demo12345', RUST_LOG: 'warn' };
const base = `http://127.0.0.1:${port}`;

async function start() {
  const proc = spawn(bin, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${base}/healthz`)).ok) return proc; } catch {}
    if (i > 400) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function stop(proc) {
  const gone = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await gone;
}

// The first start migrates and creates the demo merchant; the rows go in while the server is down.
let proc = await start();
await stop(proc);
const now = Date.now();
// The rows (bench/lists_seed.sql, shared with bench/scale on PostgreSQL).
const seed = 'PRAGMA journal_mode = WAL;\n' + readFileSync(join(root, 'bench/lists_seed.sql'), 'utf8')
  .replaceAll('{ROWS}', String(ROWS)).replaceAll('{NOW}', String(now));
execFileSync('sqlite3', [join(data, 'clipmatrix.db')], { input: seed, stdio: ['pipe', 'ignore', 'inherit'] });

proc = await start();
try {
  const login = await (await fetch(`${base}/api/login/auth`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_type: 1, username: 'demo', password: 'Demo12345', agree: true }),
  })).json();
  const headers = { authorization: `Bearer ${login.data.token}` };
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

  const get = (path, hdrs) => new Promise((resolve, reject) => {
    const req = http.get(base + path, { agent, headers: hdrs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
        resolve(Buffer.concat(chunks));
      });
    });
    req.on('error', reject);
  });

  /** Requests per second and p99 latency (ms) of `path` with CONNECTIONS requests in flight. */
  async function measure(path, hdrs = {}) {
    let next = 0;
    const lat = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < N) {
        const s = performance.now();
        await get(path, hdrs);
        lat.push(performance.now() - s);
      }
    }));
    const secs = (performance.now() - t0) / 1000;
    lat.sort((a, b) => a - b);
    return { rps: N / secs, p99: lat[Math.floor(lat.length * 0.99)] };
  }

  const lists = [
    ['log', '/api/index/log'],
    ['materials', '/api/media.merchant_much_resource/video_resource_detail'],
    ['finished_videos', '/api/clip.merchant_video_library/index'],
    ['release_items', '/api/task.merchant_forward_task/forward_video_release'],
  ];
  for (const [name, path] of lists) {
    const body = JSON.parse(await get(path, headers));
    if (body.code !== 200 || body.data.total < 1_000) throw new Error(`${name}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  await measure('/healthz'); // warm-up
  const health = await measure('/healthz');
  console.log(`bench: healthz_32c_rps ${health.rps.toFixed(0)} req/s`);
  for (const [name, path] of lists) {
    await measure(path, headers); // warm-up
    const m = await measure(path, headers);
    console.log(`bench: list_${name}_100k_rps ${m.rps.toFixed(0)} req/s`);
    console.log(`bench: list_${name}_100k_p99_ms ${m.p99.toFixed(1)} ms`);
    console.log(`bench: list_${name}_100k_vs_healthz ${(health.rps / m.rps).toFixed(2)} x`);
  }
  agent.destroy();
} finally {
  await stop(proc);
  if (process.env.BENCH_KEEP) console.log(`kept ${data}`);
  else rmSync(data, { recursive: true, force: true });
}
