// Materials benchmarks (issue: material libraries):
//   bench: upload_300mb_rss_growth_mb <n> MB   — server RSS growth while a ~300 MB video streams in
//   bench: ingest_seconds_per_media_second <s> s — ingest (probe, poster, strip, loudness, normalize)
//                                                  wall time per second of 1080p landscape material
//   bench: ingest_4s_clip_ready_ms <ms> ms          — a 4 s phone clip (1080x1920 HEVC, 60 fps): upload
//                                                  answered -> material ready, idle server (median of 3)
//   bench: ingest_4s_clip_bare_normalize_ms <ms> ms — the same clip through the mezzanine ffmpeg command
//                                                  alone, measured in the same run (the floor)
//   bench: ingest_4s_clip_ready_ratio <x>           — ready / bare normalize (1.0 = no overhead at all)
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

// A phone clip: 1080x1920 HEVC at 60 fps with sensor-like noise and AAC sound, 4 s.
const phone = join(work, 'phone.mp4');
ff(['-f', 'lavfi', '-i', 'testsrc2=size=1080x1920:rate=60', '-f', 'lavfi', '-i', 'sine=f=440:sample_rate=44100', '-t', '4',
  '-vf', 'noise=alls=12:allf=t', '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-b:v', '12M',
  '-tag:v', 'hvc1', '-c:a', 'aac', phone]);
// The mezzanine command of crates/media/src/ingest.rs (normalize_args) for this clip, run bare.
const bareNormalize = () => ff(['-i', phone, '-map', '0:v:0', '-map', '0:a:0', '-vf',
  'scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,setsar=1,fps=30,format=yuv420p',
  '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-profile:v', 'high', '-level', '4.1', '-g', '30', '-keyint_min', '30',
  '-sc_threshold', '0', '-flags', '+cgop', '-x264-params', 'repeat-headers=1', '-af', 'aresample=48000,apad', '-c:a', 'aac',
  '-b:a', '128k', '-ar', '48000', '-ac', '2', '-t', '4.000', '-video_track_timescale', '15360', '-movflags', '+faststart',
  join(work, 'bare.mp4')]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await waitReady(res.data.id);
  const up = await upload(ten, 'ten.mp4');
  const t1 = performance.now();
  await waitReady(up.data.id);
  const secs = (performance.now() - t1) / 1000;
  console.log(`bench: ingest_seconds_per_media_second ${(secs / 10).toFixed(3)} s`);

  // A short clip on an idle server, alternating with the bare ffmpeg command so both see the same machine.
  const ready = [];
  const bare = [];
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    bareNormalize();
    bare.push(performance.now() - t);
    const clip = await upload(phone, `phone${i}.mp4`);
    if (clip.code !== 200) throw new Error(`clip upload refused: ${JSON.stringify(clip)}`);
    t = performance.now();
    await waitReady(clip.data.id);
    ready.push(performance.now() - t);
  }
  console.log(`bench: ingest_4s_clip_ready_ms ${median(ready).toFixed(0)} ms`);
  console.log(`bench: ingest_4s_clip_bare_normalize_ms ${median(bare).toFixed(0)} ms`);
  console.log(`bench: ingest_4s_clip_ready_ratio ${(median(ready) / median(bare)).toFixed(2)}`);
} finally {
  proc.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
