// Material libraries: /video with a new shot group, uploads (direct and resumable), live progress,
// playback and the subtitle timeline editor.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, DEMO, expect, setLanguage, signIn, story } from './lib.mjs';

let page;
const { base, browser, step, newContext, newPage, consoleErrors, finish } = await story('materials', () => page);

const media = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-media-'));
const matContext = await newContext();
const mat = { group: 0, groupName: `镜头${Date.now().toString(36)}`, clip: 0, big: 0, image: 0, line: `第一句字幕 ${Date.now().toString(36)}` };
await step('ffmpeg makes a 2 s 720x1280 clip, a 6 MB clip and an image', async () => {
  const ff = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
  ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(media, 'clip.mp4'));
  // constant 30 Mbit/s (filler data keeps the rate): 2 s are over the 5 MiB direct-upload limit, yet cheap to transcode
  ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=660:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '30M', '-minrate', '30M', '-maxrate', '30M', '-bufsize', '4M', '-x264-params', 'nal-hrd=cbr',
    '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(media, 'big.mp4'));
  ff('-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=1', '-frames:v', '1', join(media, 'still.png'));
  const big = statSync(join(media, 'big.mp4')).size;
  expect(big > 5 * 1024 * 1024 && big < 12 * 1024 * 1024, `big.mp4 is ${big} bytes`);
});

await step('demo opens /video and creates a shot group', async () => {
  page = await newPage(matContext);
  await signIn(page, 'account', DEMO);
  // the libraries hang under the "素材库" group of the side menu
  if (!(await page.getByTestId('menu-video').isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title', { hasText: '素材库' }).click();
  await page.getByTestId('menu-video').click();
  await page.waitForURL('**/video');
  await page.getByTestId('groups').waitFor();
  await page.getByTestId('group-add').click();
  await page.getByTestId('name-input').fill(mat.groupName);
  const added = page.waitForResponse((r) => r.url().includes('/api/media.merchant_much_resource/resource_group_add'));
  await page.getByTestId('name-modal-ok').click();
  const body = await (await added).json();
  expect(body.code === 200 && body.data?.id, `resource_group_add answered ${JSON.stringify(body)}`);
  mat.group = body.data.id;
  await page.locator(`[data-testid="group-item-${mat.group}"][aria-pressed="true"]`).waitFor();
  await page.getByTestId('video-group-title').getByText(mat.groupName).waitFor();
  await page.getByTestId('video-empty').waitFor();
});

await step('demo uploads a video and an image directly and a 6 MB video in resumable chunks', async () => {
  // record the processing bar of every row as it changes (the stream pushes it)
  await page.evaluate(() => {
    window.__states = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid^="state-"]')) {
        window.__states.push(`${el.dataset.testid}:${el.dataset.state}:${el.dataset.progress ?? ''}`);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-progress'] });
  });
  const calls = [];
  const onResponse = (r) => {
    const path = new URL(r.url()).pathname;
    if (/add_resource|ossUpload|upload_chunk|add_upfile|getYunData/.test(path)) calls.push({ path, response: r });
  };
  page.on('response', onResponse);
  await page.getByTestId('video-upload').click();
  await page.getByTestId('video-upload-files-input').setInputFiles([join(media, 'clip.mp4'), join(media, 'still.png'), join(media, 'big.mp4')]);
  for (const i of [0, 1, 2]) await page.locator(`[data-testid="video-upload-files-item-${i}"][data-state="successful"]`).waitFor({ timeout: 60_000 });
  page.off('response', onResponse);
  const paths = calls.map((c) => c.path.replace('/api/', ''));
  expect(paths.filter((p) => p.endsWith('add_resource')).length === 2, `direct uploads: ${JSON.stringify(paths)}`);
  expect(paths.filter((p) => p.endsWith('ossUpload')).length === 1 && paths.filter((p) => p.endsWith('upload_chunk')).length === 2, `chunked upload: ${JSON.stringify(paths)}`);
  for (const c of calls) expect(c.response.status() === 200, `${c.path} answered ${c.response.status()}`);
  const stored = await Promise.all(calls.filter((c) => /add_resource|add_upfile/.test(c.path)).map((c) => c.response.json()));
  mat.clip = stored.find((b) => b.data.original_name === 'clip.mp4').data.id;
  mat.big = stored.find((b) => b.data.original_name === 'big.mp4').data.id;
  mat.image = stored.find((b) => b.data.kind === 'image').data.id;
  expect(stored.every((b) => b.data.group_id === mat.group), `stored outside the group: ${JSON.stringify(stored.map((b) => b.data.group_id))}`);
  await page.getByTestId('video-upload-dialog-wrap').locator('.ant-modal-close').click();
});

await step('the progress bars reach done: every row ready, the group counts 3/3', async () => {
  for (const id of [mat.clip, mat.big, mat.image]) await page.getByTestId(`video-row-${id}`).waitFor();
  for (const id of [mat.clip, mat.big, mat.image]) await page.locator(`[data-testid="state-${id}"][data-state="ready"]`).waitFor({ timeout: 90_000 });
  const seen = await page.evaluate(() => window.__states);
  expect(seen.some((s) => s.startsWith(`state-${mat.clip}:processing`)), `the clip's progress bar was never shown: ${JSON.stringify(seen.slice(-10))}`);
  await page.getByTestId(`group-count-${mat.group}`).getByText('3/3').waitFor();
  await page.getByTestId(`thumb-${mat.clip}`).and(page.locator('img')).waitFor();
  await page.getByTestId('video-total').getByText('共 3 条').waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'materials-video-zh-CN.png'), fullPage: true });
});

await step('demo plays the clip: the <video> loads and time advances', async () => {
  await page.getByTestId(`clip-play-${mat.clip}`).click();
  const video = page.getByTestId('media-player-video');
  await video.waitFor();
  await video.evaluate((v) => v.play().catch(() => undefined));
  await page.waitForFunction(() => {
    const v = document.querySelector('[data-testid="media-player-video"]');
    return v && v.readyState >= 2 && v.currentTime > 0.2;
  }, null, { timeout: 20_000 });
  // seeking back asks the server for a byte range
  const src = new URL(await video.getAttribute('src'), base);
  const range = await fetch(src, { headers: { Range: 'bytes=0-99' } });
  expect(range.status === 206 && (await range.arrayBuffer()).byteLength === 100, `Range request answered ${range.status}`);
  await page.getByTestId('media-player-wrap').locator('.ant-modal-close').click();
});

await step('demo adds a subtitle line in the timeline editor, saves, reloads: the line is there', async () => {
  await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
  await page.getByTestId('timeline-body').waitFor();
  await page.getByTestId('timeline-lines-add').click();
  await page.getByTestId('timeline-lines-cell-0-content').fill(mat.line);
  // an end before the start is refused on the line itself
  await page.getByTestId('timeline-lines-cell-0-end').fill('0');
  await page.getByTestId('timeline-lines-cell-0-end-error').waitFor();
  await page.getByTestId('timeline-lines-cell-0-end').fill('1.5');
  await page.getByTestId('timeline-lines-cell-0-end-error').waitFor({ state: 'detached' });
  const saved = page.waitForResponse((r) => r.url().includes('/api/media.merchant_much_resource/save_asr_times'));
  await page.getByTestId('timeline-save').click();
  const res = await saved;
  const body = await res.json();
  expect(res.status() === 200 && body.data?.length === 1 && body.data[0].content === mat.line && body.data[0].end === 1.5, `save answered ${JSON.stringify(body)}`);
  await page.getByTestId('timeline-dirty').waitFor({ state: 'detached' });
  await page.getByTestId('timeline-close').click();
  await page.reload();
  await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
  await page.getByTestId('timeline-body').waitFor();
  await page.waitForFunction((text) => document.querySelector('[data-testid="timeline-lines-cell-0-content"]')?.value === text, mat.line);
  expect((await page.getByTestId('timeline-lines-cell-0-end').inputValue()) === '1.5', 'the saved end time changed');
  await page.locator(`[data-testid="asr-state-${mat.clip}"][data-state="success"]`).first().waitFor();
  // clicking the line's number seeks the player to its start
  await page.getByTestId('timeline-player').evaluate((v) => (v.currentTime = 1.8));
  await page.getByTestId('timeline-seek-0').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="timeline-player"]')?.currentTime === 0);
});

await step('the timeline editor in English', async () => {
  await page.getByTestId('timeline-close').click();
  await setLanguage(page, 'en');
  await page.getByTestId('menu-video').getByText('Video library').waitFor();
  await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
  await page.getByTestId('timeline-body').getByText('Content').waitFor();
  await page.getByTestId('timeline-state').getByText('Subtitles ready').waitFor();
  await page.waitForFunction(() => {
    const v = document.querySelector('[data-testid="timeline-player"]');
    return v && v.readyState >= 2;
  });
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'materials-timeline-en.png') });
  await page.getByTestId('timeline-close').click();
});
await matContext?.close().catch(() => undefined);
rmSync(media, { recursive: true, force: true });

await finish();
