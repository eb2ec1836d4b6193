// Materials benchmarks (issue: material libraries):
//   bench: upload_300mb_rss_growth_mb <n> MB   — server RSS growth while a ~300 MB video streams in
//   bench: ingest_seconds_per_media_second <s> s — ingest (probe, poster, strip, loudness, normalize)
//                                                  wall time per second of 1080p landscape material
// The server binary is CLIPMATRIX_BIN (default target/release/clipmatrix).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, statSync, openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.env.CLIPMATRIX_BIN || join(root, 'target/release/clipmatrix');
const work = mkdtempSync(join(tmpdir(), 'clipmatrix-bench-mat-'));
const port = await new Promise((res) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const base = `http://127.0.0.1:${port}`;
const ff = (args) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });

// ~295 MB, about 10 s: noisy frames at the highest MPEG-4 quality compress badly, which is the point.
const big = join(work, 'big.mp4');
ff(['-f', 'lavfi', '-i', 'testsrc2=size=1080x1920:rate=30', '-t', '10', '-vf', 'noise=alls=60:allf=t',
  '-c:v', 'mpeg4', '-q:v', '1', '-fs', String(295 * 1024 * 1024), big]);
const ten = join(work, 'ten.mp4');
ff(['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-f', 'lavfi', '-i', 'sine=f=440', '-t', '10',
  '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', ten]);

const data = join(work, 'data');
const proc = spawn(bin, ['serve'], {
  env: { ...process.env, CLIPMATRIX_DATA_DIR: data, CLIPMATRIX_LISTEN: `127.0.0.1:${port}`, CLIPMATRIX_DEMO_PASSWORD: 'Demo12345', RUST_LOG: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1]) / 1024;
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
  const auth = { authorization: `Bearer ${login.data.token}` };
  async function upload(path, name) {
    const form = new FormData();
    form.append('file', await openAsBlob(path), name);
    const r = await fetch(`${base}/api/media.merchant_much_resource/add_resource`, { method: 'POST', headers: auth, body: form });
    return r.json();
  }

  const before = rss();
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rss()); }, 20);
  const t0 = performance.now();
  const res = await upload(big, 'big.mp4');
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  if (res.code !== 200) throw new Error(`big upload refused: ${JSON.stringify(res)}`);
  const mb = statSync(big).size / 1024 / 1024;
  console.log(`bench: upload_300mb_size ${mb.toFixed(0)} MB`);
  console.log(`bench: upload_300mb_seconds ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  console.log(`bench: upload_300mb_rss_growth_mb ${(peak - before).toFixed(1)} MB`);

  // Let the big file's ingest finish first so the timing below is of one job alone.
  const waitReady = async (id) => {
    for (;;) {
      const d = await (await fetch(`${base}/api/media.merchant_much_resource/resource_detail?id=${id}`, { headers: auth })).json();
      if (d.data.state === 'ready') return;
      if (d.data.state === 'failed') throw new Error(d.data.error);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await waitReady(res.data.id);
  const up = await upload(ten, 'ten.mp4');
  const t1 = performance.now();
  await waitReady(up.data.id);
  const secs = (performance.now() - t1) / 1000;
  console.log(`bench: ingest_seconds_per_media_second ${(secs / 10).toFixed(3)} s`);
} finally {
  proc.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
