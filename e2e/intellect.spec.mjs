// AI smart editing (/intellect, one story): the demo merchant has a 40 s long video — two
// 20 s scenes (red, blue), each with two "sentences" (tone bursts) and then 4 s of silence — whose
// subtitle lines are already recognized (saved through the API, so the run costs nothing and needs no
// speech engine). In zh-CN the Administrator opens /intellect, picks the merchant, the video, the
// target group, 10–30 s and two shorts; the run's steps and progress move to 已完成, the segments sit on
// the timeline (one per scene, the silence left out) with play buttons, and the shorts are in the
// merchant's group. Then the same page in English.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, apiAs, artifacts, DEMO, expect, fillNumber, pageToken, pickOption, setLanguage, signIn, story, uploadClip, waitReady } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('intellect', () => page);
const s = { demo: null, admin: null, merchant: null, video: null, group: null, run: null };
const demo = apiAs(base, () => s.demo);
const admin = apiAs(base, () => s.admin);

/** Speech stands in as tone bursts: 0.3–8 s and 8.8–16 s of each 20 s scene. */
const SENTENCES = [
  [0.3, 8, '欢迎光临小店'],
  [8.8, 16, '今天新品上市'],
  [20.3, 28, '招牌咖啡第二杯半价'],
  [28.8, 36, '欢迎下次再来'],
];

await step('a long video with recognized lines (through the API)', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  s.demo = await pageToken(page);
  const dir = mkdtempSync(join(tmpdir(), 'intellect-e2e-'));
  try {
    const tone = SENTENCES.map(([a, b]) => `between(t,${a},${b})`).join('+');
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'color=c=red:s=180x320:r=30:d=20', '-f', 'lavfi', '-i', 'color=c=blue:s=180x320:r=30:d=20',
      '-f', 'lavfi', '-i', `aevalsrc='(${tone})*0.3*sin(2*PI*440*t)':s=48000:d=40`,
      '-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0,format=yuv420p[v]', '-map', '[v]', '-map', '2:a',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-t', '40', join(dir, 'talk.mp4')], { stdio: 'pipe' });
    const long = await demo('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: '长视频' } });
    s.group = (await demo('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: 'AI短视频' } })).id;
    s.video = (await uploadClip(demo, dir, long.id, 'talk.mp4', '门店讲解')).id;
    await waitReady(demo, [s.video], 240_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await demo('/media.merchant_much_resource/save_asr_times', {
    method: 'POST',
    body: { resource_id: s.video, lines: SENTENCES.map(([start, end, content]) => ({ start, end, content })) },
  });
});

await step('/intellect (zh-CN): the Administrator finds two shorts, one per scene', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', ADMIN);
  s.admin = await pageToken(page);
  const merchants = (await admin('/system/merchant/index?limit=50')).rows;
  const m = merchants.find((x) => x.username === 'demo');
  s.merchant = m.id;
  await page.goto('/intellect');
  await page.getByTestId('intellect-page').waitFor();
  await page.getByTestId('page-title').getByText('AI智能剪辑').waitFor();
  await page.getByTestId('menu-intellect').waitFor();
  await pickOption(page, 'intellect-merchant', `${m.name} (demo)`);
  await pickOption(page, 'intellect-video', '门店讲解 (0:40.0)');
  await page.getByText('已识别字幕：免费').waitFor();
  await pickOption(page, 'intellect-group', 'AI短视频');
  await fillNumber(page, 'intellect-min', 10);
  await fillNumber(page, 'intellect-max', 30);
  await fillNumber(page, 'intellect-count', 2);
  const [queued] = await Promise.all([page.waitForResponse((r) => r.url().includes('/system/intellect/add')), page.getByTestId('intellect-submit').click()]);
  const body = await queued.json();
  expect(body.code === 200 && body.data.state === 'running' && body.data.points === 0, `add ${JSON.stringify(body).slice(0, 300)}`);
  s.run = body.data.id;
  await page.getByTestId(`intellect-state-${s.run}`).getByText('已完成').waitFor({ timeout: 300_000 });
  await page.getByTestId(`intellect-progress-${s.run}`).getByText('100%').waitFor();
  const run = await admin(`/system/intellect/info?id=${s.run}`);
  const spans = run.segments.map((x) => [x.start_ms, x.end_ms]);
  expect(spans.length === 2, `two segments: ${JSON.stringify(spans)}`);
  // Each covers its scene's speech and leaves the trailing silence out (boundaries within 0.5 s).
  const near = (a, b) => Math.abs(a - b) <= 500;
  expect(near(spans[0][0], 0) && near(spans[0][1], 16_000), `first ${spans[0]}`);
  expect(near(spans[1][0], 20_000) && near(spans[1][1], 36_000), `second ${spans[1]}`);
  await page.getByTestId(`intellect-segment-${s.run}-0`).getByText('欢迎光临小店 今天新品上市').waitFor();
  await page.getByTestId(`intellect-segment-${s.run}-1`).getByText('场景切换', { exact: false }).first().waitFor();
  await page.getByTestId(`intellect-bar-${s.run}-1`).waitFor();
  await page.getByTestId(`intellect-play-${s.run}-1`).click();
  const at = await page.getByTestId(`intellect-player-${s.run}`).evaluate((v) => v.currentTime);
  expect(Math.abs(at - spans[1][0] / 1000) < 0.6, `the player jumped to the segment: ${at}`);
  const short = run.segments[0].short;
  expect(short && short.group_id === s.group && short.state === 'ready', `short ${JSON.stringify(short)}`);
  await page.getByTestId(`intellect-short-${s.run}-0`).waitFor();
  const res = await fetch(`${base}${short.src}`);
  expect(res.status === 200 && (await res.arrayBuffer()).byteLength > 10_000, 'the short is served');
  const inGroup = await demo(`/media.merchant_much_resource/video_resource_detail?group_id=${s.group}`);
  expect(inGroup.total === 2, `two shorts in the group: ${inGroup.total}`);
  await page.screenshot({ path: join(artifacts, 'intellect-zh-CN.png'), fullPage: true });
});

await step('/intellect in English', async () => {
  await setLanguage(page, 'en');
  await page.goto('/intellect');
  await page.getByTestId('page-title').getByText('AI smart editing').waitFor();
  await page.getByTestId(`intellect-state-${s.run}`).getByText('Done').waitFor();
  await page.getByTestId(`intellect-segment-${s.run}-1`).getByText('scene change', { exact: false }).first().waitFor();
  await page.getByText('10–30 s, up to 2 shorts').waitFor();
  await page.screenshot({ path: join(artifacts, 'intellect-en.png'), fullPage: true });
});

await finish();
