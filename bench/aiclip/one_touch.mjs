// One-touch video benchmark (issue 19):
//   bench: one_touch_seconds <s> s        — a topic -> script -> voice-over -> matched clips -> 5 finished
//                                           unique 30 s variants (target length 30), wall time from
//                                           oneTouchNew to the job's `done` (target ≤ 60 s on 2 cores;
//                                           MoneyPrinterTurbo's MoviePy path took 207 s for one variant here)
//   bench: one_touch_vs_target <x>        — one_touch_seconds / 60 (≤ 1 meets the target)
//   bench: one_touch_video_seconds <s> s  — the length of each variant (the voice-over's)
//   bench: one_touch_voice_seconds <s> s  — queued -> the voice-over made (script + TTS)
//   bench: one_touch_step_<state>_seconds — time spent in each step of the job (queued, script, voice,
//                                           match, rendering), from the job's states as it reports them
// Footage: 4 shot groups of 2 x 10 s clips (1080x1920 H.264, ingested before the clock starts). The server
// binary is CLIPMATRIX_BIN (default target/release/clipmatrix); the TTS engine comes from <repo>/data/tts.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = process.env.CLIPMATRIX_BIN || join(root, 'target/release/clipmatrix');
const work = mkdtempSync(join(tmpdir(), 'clipmatrix-bench-onetouch-'));
const port = await new Promise((res) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const base = `http://127.0.0.1:${port}`;
const ff = (args) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const proc = spawn(bin, ['serve'], {
  env: {
    ...process.env,
    CLIPMATRIX_DATA_DIR: join(work, 'data'),
    CLIPMATRIX_TTS_DIR: process.env.CLIPMATRIX_TTS_DIR || join(root, 'data/tts'),
    CLIPMATRIX_LISTEN: `127.0.0.1:${port}`,
    CLIPMATRIX_DEMO_PASSWORD: 'Demo12345',
    CLIPMATRIX_ADMIN_PASSWORD: 'Admin12345',
    RUST_LOG: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let token;
async function api(path, { method = 'GET', body, form } = {}) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: form ?? (body ? JSON.stringify(body) : undefined),
  });
  const env = await res.json();
  if (env.code !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(env).slice(0, 300)}`);
  return env.data;
}
try {
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${base}/healthz`)).ok) break; } catch {}
    if (i > 400) throw new Error('server did not start');
    await sleep(50);
  }
  const login = await fetch(`${base}/api/login/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_type: 1, username: 'demo', password: 'Demo12345', agree: true }),
  });
  token = (await login.json()).data.token;

  // Footage named for what it shows, ingested before the clock starts.
  const plan = [['门店外景', ['red', 'orange']], ['牛肉面', ['yellow', 'green']], ['后厨拉面', ['blue', 'purple']], ['顾客用餐', ['white', 'gray']]];
  const ids = [];
  for (const [name, colours] of plan) {
    const g = await api('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name } });
    for (const c of colours) {
      const file = join(work, `${c}.mp4`);
      ff(['-f', 'lavfi', '-i', `color=c=${c}:s=1080x1920:r=30:d=10`, '-f', 'lavfi', '-i', 'sine=f=330:d=10', '-vf', 'noise=alls=8:allf=t',
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
      const form = new FormData();
      form.append('group_id', String(g.id));
      form.append('file', new Blob([readFileSync(file)], { type: 'video/mp4' }), `${c}.mp4`);
      ids.push((await api('/media.merchant_much_resource/add_resource', { method: 'POST', form })).id);
    }
  }
  for (const id of ids) {
    for (;;) {
      const m = await api(`/media.merchant_much_resource/resource_detail?id=${id}`);
      if (m.state === 'ready') break;
      if (m.state === 'failed') throw new Error(`clip ${id} failed: ${m.error}`);
      await sleep(200);
    }
  }
  // The built-in music (seeded at first start) must be there before the clock starts.
  for (let i = 0; (await api('/media.merchant_producing_upfile/system_music_index')).total === 0; i++) {
    if (i > 600) throw new Error('no built-in music');
    await sleep(100);
  }

  const t0 = performance.now();
  const job = await api('/media.merchant_key_slice/oneTouchNew', { method: 'POST', body: { topic: '手工牛肉面，汤底熬足八小时，每天现拉现煮', count: 5, seconds: 30 } });
  let voiced = null;
  let row;
  // When each state was first seen (polled every 100 ms).
  const since = { queued: 0 };
  for (;;) {
    row = (await api('/media.merchant_key_slice/my_one_touch_job?limit=5')).rows.find((r) => r.id === job.id);
    const now = (performance.now() - t0) / 1000;
    if (since[row.state] === undefined) since[row.state] = now;
    if (voiced === null && row.voice_media_id > 0) voiced = now;
    if (row.state === 'done' || row.state === 'failed') break;
    await sleep(100);
  }
  const total = (performance.now() - t0) / 1000;
  if (row.state !== 'done') throw new Error(`the job failed: ${row.reason}`);
  const videos = (await api(`/media.merchant_key_slice/getVideoList?id=${job.id}`)).rows;
  if (videos.length !== 5 || videos.some((v) => v.state !== 'success')) throw new Error(`videos: ${JSON.stringify(videos).slice(0, 300)}`);
  const avg = videos.reduce((a, v) => a + v.duration_ms, 0) / videos.length / 1000;
  if (Math.abs(avg - 30) > 6) throw new Error(`videos last ${avg.toFixed(1)} s, not about 30 s`);
  console.log(`bench: one_touch_seconds ${total.toFixed(1)} s`);
  console.log(`bench: one_touch_vs_target ${(total / 60).toFixed(2)}`);
  console.log(`bench: one_touch_video_seconds ${avg.toFixed(1)} s`);
  console.log(`bench: one_touch_voice_seconds ${(voiced ?? total).toFixed(1)} s`);
  const order = ['queued', 'script', 'voice', 'match', 'rendering', 'done'].filter((s) => since[s] !== undefined);
  for (let i = 0; i + 1 < order.length; i++) {
    console.log(`bench: one_touch_step_${order[i]}_seconds ${(since[order[i + 1]] - since[order[i]]).toFixed(1)} s`);
  }
} finally {
  proc.kill('SIGTERM');
  await sleep(300);
  rmSync(work, { recursive: true, force: true });
}
