// AI voice (area `ai`, one story): on /ai_voice (zh-CN) the merchant writes a script, previews the first
// sentence, creates the voice-over, watches the task finish, plays it and imports it into /speak, where
// it is a voice material with the script's sentences as subtitle lines; then uses it as the voice-over
// of a quick-mix project through the API and checks the variant carries it; voice cloning against the
// sandbox's Doubao-style simulator; the English pages (/ai_voice and /ai_index) at the end.
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { apiAs, artifacts, colourClips, DEMO, expect, pageToken, pickOption, setLanguage, signIn, story, uploadClip, waitReady } from './lib.mjs';
import { tmpdir } from 'node:os';

let page;
const { base, step, newContext, newPage, finish } = await story('ai', () => page, {
  env: (url) => ({ CLIPMATRIX_CLONE_URL: `${url}/sandbox/doubao`, CLIPMATRIX_CLONE_TOKEN: 'sbx_doubao_token', CLIPMATRIX_CLONE_APPID: 'e2e' }),
});
const s = { token: null, task: null, media: null };
const api = apiAs(base, () => s.token);
const SCRIPT = '欢迎来到我们的店铺，今天全场商品都有优惠。新鲜的水果每天早上送到，价格实惠，品质放心。';

await step('/ai_voice: preview the first sentence, create the voice-over (1 point)', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  s.token = await pageToken(page);
  const before = (await api('/index/dashboard')).points;
  await page.goto('/ai_voice');
  await page.getByTestId('ai-voice-page').waitFor();
  await page.getByTestId('page-title').getByText('AI 配音').waitFor();
  await page.getByTestId('ai-text').fill(SCRIPT);
  await page.getByTestId('ai-cost').getByText('预计消耗 1 点').waitFor();
  const [preview] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/ai.MerchantDub/nlsAudition'), { timeout: 120_000 }),
    page.getByTestId('ai-audition').click(),
  ]);
  const answer = await preview.json();
  expect(answer.code === 200 && answer.data.streamed === true, `audition answered ${JSON.stringify(answer).slice(0, 200)}`);
  await page.getByTestId('ai-preview-line').getByText('欢迎来到我们的店铺，今天全场商品都有优惠').waitFor();
  // The streamed preview plays in the browser: the <audio> element has decoded the MP3 stream.
  await page.waitForFunction(() => document.querySelector('[data-testid=ai-preview-audio]')?.readyState >= 2, null, { timeout: 120_000 });
  const [queued] = await Promise.all([page.waitForResponse((r) => r.url().includes('/ai.MerchantDub/putNlsTask')), page.getByTestId('ai-submit').click()]);
  const body = await queued.json();
  expect(body.code === 200 && body.data.points === 1, `putNlsTask ${JSON.stringify(body).slice(0, 300)}`);
  s.task = body.data.id;
  expect((await api('/index/dashboard')).points === before - 1, 'one point taken');
  await page.screenshot({ path: join(artifacts, 'ai-create-zh-CN.png'), fullPage: true });
});

await step('the task finishes on the task list (SSE), plays, and is imported into /speak', async () => {
  await page.getByTestId(`task-state-${s.task}`).getByText('已完成').waitFor({ timeout: 240_000 });
  const src = await page.getByTestId(`task-audio-${s.task}`).getAttribute('src');
  const res = await fetch(`${base}${src}`);
  expect(res.status === 200 && (await res.arrayBuffer()).byteLength > 10_000, 'the audio is served');
  const [imported] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/ai.MerchantDub/importingBroadcast')),
    page.getByTestId(`task-import-${s.task}`).click(),
  ]);
  s.media = (await imported.json()).data.id;
  await page.getByTestId(`task-imported-${s.task}`).waitFor();
  await waitReady(api, [s.media]);
  const lines = await api(`/media.merchant_much_resource/asr_detail?resource_id=${s.media}&limit=50`);
  expect(
    JSON.stringify(lines.rows.map((l) => l.content)) === JSON.stringify(['欢迎来到我们的店铺，今天全场商品都有优惠', '新鲜的水果每天早上送到，价格实惠，品质放心']),
    `lines ${JSON.stringify(lines.rows)}`,
  );
  await page.goto('/speak');
  await page.getByText(`${SCRIPT.slice(0, 20)}.m4a`).first().waitFor();
  await page.screenshot({ path: join(artifacts, 'ai-speak-zh-CN.png'), fullPage: true });
});

await step('a quick mix with the TTS voice-over: its variant carries the voice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ai-e2e-'));
  try {
    // 3 x 4 s: at least as long as the voice-over (shorter combinations are not made: they would cut it off)
    colourClips(dir, ['red', 'green', 'blue'], 4);
    const ids = [];
    const groups = [];
    for (const c of ['red', 'green', 'blue']) {
      const g = await api('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `AI ${c}` } });
      groups.push(g.id);
      ids.push((await uploadClip(api, dir, g.id, `${c}.mp4`, c)).id);
    }
    await waitReady(api, ids);
    const p = await api('/clip.merchant_much_clip/add', {
      method: 'POST',
      body: { name: 'AI voice mix', config: { groups: groups.map((g) => ({ group_id: g })), voice: { media_ids: [s.media], volume: 100 }, subtitles: { enabled: true } } },
    });
    await api('/clip.merchant_much_clip/add_video', { method: 'POST', body: { id: p.id, count: 1 } });
    const deadline = Date.now() + 240_000;
    let v;
    for (;;) {
      v = (await api(`/clip.merchant_video_library/video_index?project_id=${p.id}`)).rows[0];
      if (v && v.state !== 'processing') break;
      expect(Date.now() < deadline, 'the variant did not finish');
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(v.state === 'success', `variant ${JSON.stringify(v).slice(0, 300)}`);
    const res = await fetch(`${base}${v.src}`);
    expect(res.status === 200, 'the variant is served');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

await step('voice cloning against the sandbox: training, then a new voice in the list', async () => {
  // The sample: 12 s of audio uploaded to /speak (the voice-over above is too short to clone).
  const dir = mkdtempSync(join(tmpdir(), 'ai-e2e-'));
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=220:d=12', '-ac', '1', join(dir, 'sample.wav')]);
    const form = new FormData();
    form.append('type', 'voice');
    form.append('file', new Blob([readFileSync(join(dir, 'sample.wav'))], { type: 'audio/wav' }), 'sample.wav');
    const m = await api('/bpdr.merchant_mediainfo/upload', { method: 'POST', form });
    await waitReady(api, [m.id]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await page.goto('/ai_voice');
  await page.getByTestId('tab-clone').click();
  await page.getByTestId('clone-form').waitFor();
  await page.getByTestId('clone-name').fill('我的声音');
  await pickOption(page, 'clone-sample', 'sample.wav (0:12)');
  const [up] = await Promise.all([page.waitForResponse((r) => r.url().includes('/doubao.db_audio/upload')), page.getByTestId('clone-submit').click()]);
  const clone = (await up.json()).data;
  expect(clone.state === 'training', `clone ${JSON.stringify(clone)}`);
  await page.getByTestId(`clone-state-${clone.id}`).getByText('训练中').waitFor();
  await page.getByTestId('clone-refresh').click();
  await page.getByTestId(`clone-state-${clone.id}`).getByText('可使用').waitFor();
  const voices = await api('/ai.MerchantDub/get_voice_list');
  expect(voices.rows.some((v) => v.id === clone.voice && v.source === 'clone'), 'the clone is a voice of the list');
  await page.screenshot({ path: join(artifacts, 'ai-clone-zh-CN.png'), fullPage: true });
});

await step('the AI voice pages in English', async () => {
  await setLanguage(page, 'en');
  await page.goto('/ai_voice');
  await page.getByTestId('page-title').getByText('AI voice').waitFor();
  await page.getByText('Create voice-over').waitFor();
  await page.getByTestId('tab-tasks').click();
  await page.getByTestId(`task-state-${s.task}`).getByText('Done').waitFor();
  await page.goto('/ai_index');
  await page.getByTestId('ai-voice-page').waitFor();
  await page.goto('/ai_voice_new');
  await page.getByTestId('route-lang').waitFor();
  await page.screenshot({ path: join(artifacts, 'ai-en.png'), fullPage: true });
});

await finish();
