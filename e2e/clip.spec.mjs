// Clip: quick mix (/normal_mode → /piece_rep), advanced mode, batch slicing and importing finished videos.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiAs, artifacts, colourClips, DEMO, dialogReady, expect, fillNumber, pageToken, pickOption, rowIds, setLanguage, signIn, story, submitUntilShown, uploadClip, waitReady } from './lib.mjs';

let page;
const { base, browser, step, newContext, newPage, consoleErrors, finish } = await story('clip', () => page);

const clipMedia = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-clip-'));
const clipContext = await newContext();
const mix = { token: null, stamp: Date.now().toString(36), groups: [], clips: [], project: 0, variants: [], polls: 0, streams: 0 };
mix.name = `混剪${mix.stamp}`;
/** Calls with the demo token (signed in on the page below). */
const clipApi = apiAs(base, () => mix.token);
const openClipMenu = async (id) => {
  if (!(await page.getByTestId(id).isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title', { hasText: /剪辑|Editing/ }).click();
  await page.getByTestId(id).click();
};

await step('ffmpeg makes six 1 s 720x1280 colour clips', async () => {
  colourClips(clipMedia, ['red', 'orange', 'green', 'teal', 'blue', 'purple']);
});

await step('demo makes three shot groups through the API, two clips each, and waits until they are ready', async () => {
  page = await newPage(clipContext);
  // progress comes from the `variant` events of /api/events; the library polls only while that stream is
  // down. The layout opens the one shared stream (lead notices) before any library page: count from here.
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/events' && r.status() === 200) mix.streams += 1;
  });
  await signIn(page, 'account', DEMO);
  mix.token = await pageToken(page);
  expect(mix.token, 'no token in the page');
  const colours = [['red', 'orange'], ['green', 'teal'], ['blue', 'purple']];
  for (const [i, pair] of colours.entries()) {
    const group = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `镜头${i + 1}-${mix.stamp}` } });
    mix.groups.push(group);
    for (const colour of pair) {
      const clip = await uploadClip(clipApi, clipMedia, group.id, `${colour}.mp4`, `${colour}-${mix.stamp}`);
      expect(clip.group_id === group.id, `clip stored in group ${clip.group_id}, not ${group.id}`);
      mix.clips.push(clip.id);
    }
  }
  await waitReady(clipApi, mix.clips);
  const { rows } = await clipApi('/clip.merchant_much_clip/get_resource_group');
  for (const g of mix.groups) expect(rows.find((r) => r.id === g.id)?.ready === 2, `group ${g.name}: ${JSON.stringify(rows.find((r) => r.id === g.id))}`);
});

await step('demo creates a quick-mix project from the three groups on /normal_mode', async () => {
  await openClipMenu('menu-normal_mode');
  await page.waitForURL('**/normal_mode');
  await page.getByTestId('projects-total').waitFor();
  await page.getByTestId('project-add').click();
  await page.getByTestId('project-form-name').fill(mix.name);
  // fewer than three groups is refused in the form
  await pickOption(page, 'group-picker-add', mix.groups[0].name);
  await pickOption(page, 'group-picker-add', mix.groups[1].name);
  await submitUntilShown(page, 'project-form-ok', page.getByText('至少需要 3 个镜头组'));
  await pickOption(page, 'group-picker-add', mix.groups[2].name);
  await page.getByText('至少需要 3 个镜头组').waitFor({ state: 'detached' });
  for (const g of mix.groups) await page.getByTestId(`group-ready-${g.id}`).getByText('2 个可用').waitFor();
  await page.locator('[data-testid="group-capacity"][data-capacity="8"]').waitFor();
  await page.getByTestId('group-pool-warning').getByText('建议素材至少 80 个').waitFor();
  await page.getByTestId('project-form-title').fill('春季上新');
  // Duplicate-risk levers: a second title the variants take in turn, trims and text places per variant.
  await page.getByTestId('project-form-title-add').click();
  await page.getByTestId('project-form-title-2').fill('春季上新');
  await page.getByText('与其他标题重复').waitFor();
  await page.getByTestId('project-form-title-2').fill('周末特惠');
  await page.getByText('与其他标题重复').waitFor({ state: 'detached' });
  await page.getByTestId('project-form-trim-vary').click();
  await page.getByTestId('project-form-text-vary').click();
  await page.getByTestId('project-form-output').fill('5');
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'clip-project-zh-CN.png'), fullPage: true });
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add')),
    page.getByTestId('project-form-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.code === 200, `add answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  const sent = JSON.parse(res.request().postData() ?? '{}');
  expect(JSON.stringify(sent.config.groups.map((g) => g.group_id)) === JSON.stringify(mix.groups.map((g) => g.id)), `groups sent ${JSON.stringify(sent.config.groups)}`);
  expect(sent.config.title?.text === '春季上新' && sent.config.output_count === 5, `config sent ${JSON.stringify(sent.config)}`);
  expect(JSON.stringify(sent.config.title.texts) === '["春季上新","周末特惠"]' && sent.config.trim_vary === true && sent.config.text_vary === true, `levers sent ${JSON.stringify(sent.config)}`);
  expect(JSON.stringify(body.data.config?.title?.texts) === '["春季上新","周末特惠"]' && body.data.config?.text_vary === true, `levers kept ${JSON.stringify(body.data.config)}`);
  mix.project = body.data.id;
  expect(body.data.capacity === 8 && body.data.small_pool === true, `project ${JSON.stringify(body.data).slice(0, 300)}`);
  await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
  await page.getByTestId(`projects-row-${mix.project}`).waitFor();
  await page.getByTestId(`project-capacity-${mix.project}`).getByText('8').waitFor();
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.screenshot({ path: join(artifacts, 'clip-projects-zh-CN.png'), fullPage: true });
});

await step('demo previews the plan and generates 5 variants for 10 points', async () => {
  await page.getByTestId(`project-preview-${mix.project}`).click();
  await page.getByTestId('plan-seq-4').waitFor();
  expect((await page.locator('[data-testid^="plan-seq-"]').count()) === 5, 'the plan does not show five sequences');
  expect((await page.getByTestId('plan-points').textContent()) === '10', 'the plan does not cost 10 points');
  await page.getByTestId('plan-dialog-wrap').locator('.ant-modal-close').click();
  await page.getByTestId(`project-generate-${mix.project}`).click();
  await page.locator('[data-testid="generate-points"][data-points="10"]').waitFor();
  await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add_video')),
    page.getByTestId('generate-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.variant_ids?.length === 5 && body.data.points === 10, `add_video answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  mix.variants = body.data.variant_ids;
  await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
});

await step('on /piece_rep the five variants render with a progress bar and succeed', async () => {
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/clip.merchant_video_library/index' && url.searchParams.get('state') === 'processing') mix.polls += 1;
  });
  await openClipMenu('menu-piece_rep');
  await page.waitForURL('**/piece_rep');
  for (const id of mix.variants) await page.getByTestId(`library-row-${id}`).waitFor();
  await page.evaluate(() => {
    window.__variantStates = [];
    const record = () => {
      for (const el of document.querySelectorAll('[data-testid^="variant-state-"]')) window.__variantStates.push(`${el.dataset.testid}:${el.dataset.state}:${el.dataset.progress ?? ''}`);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-progress'] });
  });
  for (const id of mix.variants) await page.locator(`[data-testid="variant-state-${id}"][data-state="success"]`).waitFor({ timeout: 240_000 });
  const seen = await page.evaluate(() => window.__variantStates);
  const failed = seen.filter((s) => s.includes(':failed'));
  expect(!failed.length, `variants failed: ${JSON.stringify(failed)}`);
  // rendering was shown (progress bar) unless every render finished before the page loaded; the rows then
  // turned success without a reload, from the event stream (or from polling while it was down)
  if (seen.some((s) => s.includes(':processing'))) expect(mix.streams > 0 || mix.polls > 0, 'while variants rendered the library neither listened to /api/events nor polled');
  for (const id of mix.variants) {
    await page.getByTestId(`variant-cover-${id}`).and(page.locator('img')).waitFor();
    await page.locator(`[data-testid="variant-used-${id}"][data-used="0"]`).waitFor();
  }
  await page.getByTestId('library-rendering').waitFor({ state: 'detached' });
});

await step('demo sees each variant\'s duplicate risk with its reason, and filters the library by it', async () => {
  // Measured as each render ends (siblings finishing later raise earlier ones): read after a reload.
  await page.reload();
  const levels = {};
  for (const id of mix.variants) {
    const tag = page.locator(`[data-testid="variant-risk-${id}"][data-level]`);
    await tag.waitFor();
    levels[id] = await tag.getAttribute('data-level');
    expect(/^(高|中|低) \d+$/.test((await tag.textContent()) ?? ''), `risk tag of ${id}: ${await tag.textContent()}`);
  }
  const first = mix.variants[0];
  await page.getByTestId(`variant-risk-${first}`).hover();
  // Five variants of three groups of two clips share clips: the most alike sibling is named.
  await page.getByTestId(`variant-risk-${first}-reasons`).getByText(/^与同项目 #\d+：共用 \d\/3 个镜头/).waitFor();
  await page.mouse.move(0, 0);
  const level = levels[first];
  const word = { high: '高', medium: '中', low: '低' }[level];
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/index') && r.url().includes(`risk_level=${level}`)),
    pickOption(page, 'library-risk', `${word}风险`),
  ]);
  const body = await res.json();
  expect(body.data.rows.length > 0 && body.data.rows.every((r) => r.risk_level === level), `filtered by ${level}: ${JSON.stringify(body.data.rows.map((r) => [r.id, r.risk]))}`);
  await page.getByTestId(`library-row-${first}`).waitFor();
  await page.getByTestId('library-risk').locator('.ant-select-clear').click({ force: true });
  for (const id of mix.variants) await page.getByTestId(`library-row-${id}`).waitFor();
});

await step('demo plays a variant (the <video> time advances) and marks it used', async () => {
  const id = mix.variants[0];
  await page.getByTestId(`variant-play-${id}`).click();
  const video = page.getByTestId('variant-video');
  await video.waitFor();
  await video.evaluate((v) => v.play().catch(() => undefined));
  await page.waitForFunction(() => {
    const v = document.querySelector('[data-testid="variant-video"]');
    return v && v.readyState >= 2 && v.currentTime > 0.2;
  }, null, { timeout: 20_000 });
  const duration = await video.evaluate((v) => v.duration);
  expect(duration > 2 && duration < 5, `the variant lasts ${duration} s, expected about 3 s`);
  await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/video_use')),
    page.getByTestId(`variant-use-${id}`).click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.used === 1, `video_use answered ${res.status()} ${JSON.stringify(body).slice(0, 200)}`);
  expect(JSON.parse(res.request().postData() ?? '{}').used === true, 'video_use was not asked to mark it used');
  await page.locator(`[data-testid="variant-used-${id}"][data-used="1"]`).waitFor();
  const { rows } = await clipApi(`/clip.merchant_video_library/video_index?project_id=${mix.project}`);
  expect(rows.length === 5 && rows.filter((r) => r.used === 1).map((r) => r.id).join() === String(id), `library rows ${JSON.stringify(rows.map((r) => [r.id, r.state, r.used]))}`);
});

await step('demo downloads two variants as one zip, and an interrupted zip resumes where it stopped', async () => {
  const pick = mix.variants.slice(0, 2);
  for (const id of pick) await page.locator(`tr[data-row-key="${id}"] .ant-table-selection-column input`).check();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('library-download').click()]);
  expect(/^clipmatrix-videos-2\.zip$/.test(download.suggestedFilename()), `file ${download.suggestedFilename()}`);
  const file = await download.path();
  const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
  expect(listing.length === 2 && pick.every((id) => listing.some((n) => n.endsWith(`-${id}.mp4`))), `zip holds ${listing}`);
  execFileSync('unzip', ['-tq', file]);
  // What a browser does after a broken connection: the rest, only if the zip is still the same.
  const whole = readFileSync(file);
  const head = await fetch(download.url(), { headers: { range: 'bytes=0-0' } });
  const etag = head.headers.get('etag');
  await head.arrayBuffer();
  const cut = Math.floor(whole.length / 3);
  const rest = await fetch(download.url(), { headers: { range: `bytes=${cut}-`, 'if-range': etag } });
  expect(rest.status === 206 && etag, `resume answered ${rest.status} (etag ${etag})`);
  const tail = Buffer.from(await rest.arrayBuffer());
  expect(Buffer.concat([whole.subarray(0, cut), tail]).equals(whole), 'the resumed zip differs from the whole');
  for (const id of pick) await page.locator(`tr[data-row-key="${id}"] .ant-table-selection-column input`).uncheck();
});

await step('the finished-video library in English', async () => {
  await setLanguage(page, 'en');
  await page.getByTestId('page-title').getByText('Finished videos').waitFor();
  await page.getByTestId(`variant-used-${mix.variants[0]}`).getByText('Used').waitFor();
  await page.getByTestId(`variant-state-${mix.variants[1]}`).getByText('Success').waitFor();
  await page.getByTestId('library-table').getByRole('columnheader', { name: 'Duplicate risk' }).first().waitFor();
  await page.getByTestId(`variant-risk-${mix.variants[1]}`).getByText(/^(High|Medium|Low) \d+$/).waitFor();
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'piece-rep-en.png'), fullPage: true });
});

// ---- advanced mode, batch slice and library import (clip features after quick mix): an advanced project
// from the same three shot groups with a caption, a later start and a transition, its variants rendered
// and played; the quick-mix project's remaining variants rendered in one go; a 12 s video sliced by
// fixed length into a shot group; the merchant's own finished video imported into the library
const adv = { stamp: Date.now().toString(36), project: 0, variants: [], caption: '第二镜·新品', long: 0, finished: 0, slice: 0, source: 0, slices: [], imported: 0 };
adv.name = `高级混剪${adv.stamp}`;
adv.sliceName = `切片${adv.stamp}`;
/** Waits until the <video> found by test id has loaded and played past 0.2 s; answers its duration. */
const playsFor = async (testId) => {
  const video = page.getByTestId(testId);
  await video.waitFor();
  await video.evaluate((v) => v.play().catch(() => undefined));
  await page.waitForFunction((id) => {
    const v = document.querySelector(`[data-testid="${id}"]`);
    return v && v.readyState >= 2 && v.currentTime > 0.2;
  }, testId, { timeout: 20_000 });
  return video.evaluate((v) => v.duration);
};

await step('demo creates an advanced-mode project on /high_modeVisualization_clip: a caption, a later start and a fade', async () => {
  await setLanguage(page, 'zh-CN');
  await openClipMenu('menu-high_modeVisualization_clip');
  await page.waitForURL('**/high_modeVisualization_clip');
  await page.getByTestId('high-mode-page').waitFor();
  await page.getByTestId('projects-total').waitFor();
  // the quick-mix project is not an advanced one
  expect((await page.getByTestId(`projects-row-${mix.project}`).count()) === 0, 'the quick-mix project is listed in advanced mode');
  await page.getByTestId('project-add').click();
  await page.getByTestId('project-form-name').fill(adv.name);
  for (const g of mix.groups) await pickOption(page, 'group-picker-add', g.name);
  const [g1, g2, g3] = mix.groups.map((g) => g.id);
  for (const id of [g1, g2, g3]) await page.getByTestId(`group-shot-${id}`).waitFor();
  await page.locator('[data-testid="group-capacity"][data-capacity="8"]').waitFor();
  // the last shot has nothing to transition into
  const lastOff = await page.getByTestId(`group-transition-${g3}`).evaluate((e) => (e.closest('.ant-select') ?? e.querySelector('.ant-select') ?? e).classList.contains('ant-select-disabled'));
  expect(lastOff, 'the last shot offers a transition');
  // shot 1 fades into shot 2 over 600 ms, shot 2 carries a caption, shot 3 starts 0.2 s into its clips
  await pickOption(page, `group-transition-${g1}`, '淡入淡出');
  await fillNumber(page, `group-transition-ms-${g1}`, 600);
  await page.getByTestId(`group-text-${g2}`).fill(adv.caption);
  await fillNumber(page, `group-start-${g3}`, 0.2);
  await page.locator('[data-testid="project-form-shot-text"]:not([hidden])').waitFor(); // the captions' style
  expect((await page.locator('[data-testid^="group-problem-"]').count()) === 0, 'the form shows a shot problem');
  await page.getByTestId('project-form-output').fill('2');
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'clip-senior-project-zh-CN.png'), fullPage: true });
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_senior_clip/modify')),
    page.getByTestId('project-form-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.code === 200, `modify answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  const sent = JSON.parse(res.request().postData() ?? '{}');
  const shots = sent.config.groups.map((g) => ({ group_id: g.group_id, in_ms: g.in_ms ?? 0, text: g.text ?? '', transition: g.transition ? { kind: g.transition.kind, ms: g.transition.ms } : null }));
  const want = [
    { group_id: g1, in_ms: 0, text: '', transition: { kind: 'fade', ms: 600 } },
    { group_id: g2, in_ms: 0, text: adv.caption, transition: null },
    { group_id: g3, in_ms: 200, text: '', transition: null },
  ];
  expect(!sent.id && JSON.stringify(shots) === JSON.stringify(want), `shots sent ${JSON.stringify(sent.config.groups)}`);
  expect(sent.config.output_count === 2 && sent.config.shot_style, `config sent ${JSON.stringify(sent.config)}`);
  adv.project = body.data.id;
  expect(body.data.mode === 'senior' && body.data.capacity === 8, `project ${JSON.stringify(body.data).slice(0, 300)}`);
  expect(JSON.stringify(body.data.config.groups.map((g) => g.text ?? '')) === JSON.stringify(['', adv.caption, '']), `stored shots ${JSON.stringify(body.data.config.groups)}`);
  await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
  await page.getByTestId(`projects-row-${adv.project}`).waitFor();
  await page.getByTestId(`project-name-${adv.project}`).getByText(adv.name).waitFor();
  await page.getByTestId(`project-capacity-${adv.project}`).getByText('8').waitFor();
  // editing it shows the shots as saved
  await page.getByTestId(`project-edit-${adv.project}`).click();
  await page.getByTestId(`group-text-${g2}`).and(page.locator(`[value="${adv.caption}"]`)).waitFor();
  await page.getByTestId(`group-transition-${g1}`).getByText('淡入淡出').waitFor();
  await page.getByTestId('project-form-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
});

await step('demo generates 2 advanced variants; they render, succeed and play about 2.2 s', async () => {
  await page.getByTestId(`project-generate-${adv.project}`).click();
  await page.locator('[data-testid="generate-points"][data-points="4"]').waitFor();
  await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add_video')),
    page.getByTestId('generate-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.variant_ids?.length === 2 && body.data.points === 4, `add_video answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  adv.variants = body.data.variant_ids;
  await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
  // the project's variant counts open its videos in the library
  await page.getByTestId(`project-variants-${adv.project}`).click();
  await page.waitForURL((url) => url.pathname === '/piece_rep' && url.searchParams.get('project_id') === String(adv.project));
  for (const id of adv.variants) await page.getByTestId(`library-row-${id}`).waitFor();
  for (const id of adv.variants) {
    const state = page.getByTestId(`variant-state-${id}`);
    await page.locator(`[data-testid="variant-state-${id}"]:is([data-state="success"], [data-state="failed"])`).waitFor({ timeout: 240_000 });
    const error = await page.getByTestId(`variant-error-${id}`).textContent().catch(() => null);
    expect((await state.getAttribute('data-state')) === 'success', `variant ${id} failed: ${error}`);
    await page.getByTestId(`variant-project-${id}`).getByText(adv.name).waitFor();
    await page.getByTestId(`variant-cover-${id}`).and(page.locator('img')).waitFor();
  }
  // the project filter shows only this project's videos
  const shown = (await rowIds(page, 'library')).sort((a, b) => a - b);
  expect(JSON.stringify(shown) === JSON.stringify([...adv.variants].sort((a, b) => a - b)), `the filtered library shows ${JSON.stringify(shown)}`);
  await page.getByTestId(`variant-play-${adv.variants[0]}`).click();
  // 1 + 1 + 0.8 s of shots, minus the 0.6 s fade
  const duration = await playsFor('variant-video');
  expect(duration > 1.8 && duration < 2.6, `the advanced variant lasts ${duration} s, expected about 2.2 s`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'clip-senior-variant-zh-CN.png') });
  await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('variant-player-wrap').waitFor({ state: 'hidden' });
  const { rows } = await clipApi(`/clip.merchant_video_library/video_index?project_id=${adv.project}`);
  expect(rows.length === 2 && rows.every((r) => r.state === 'success' && Math.abs(r.duration_ms - 2200) < 400), `advanced variants ${JSON.stringify(rows.map((r) => [r.id, r.state, r.duration_ms]))}`);
});

await step('demo renders all remaining quick-mix variants from /piece_rep: 3 more for 6 points, the project is full', async () => {
  await page.getByTestId('library-project').click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${mix.name}"]`).click();
  await page.waitForURL((url) => url.searchParams.get('project_id') === String(mix.project));
  await page.getByTestId(`library-row-${mix.variants[0]}`).waitFor();
  await page.getByTestId('library-render-all').click();
  await dialogReady(page, 'generate-dialog-wrap');
  // every unique variant left: 8 possible − 5 made; the count is not editable
  await page.locator('[data-testid="generate-points"][data-points="6"]').waitFor();
  expect((await page.getByTestId('generate-count').locator('input').or(page.locator('input[data-testid="generate-count"]')).first().inputValue()) === '3', 'render all does not offer 3');
  await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/job_video_add_all')),
    page.getByTestId('generate-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.variant_ids?.length === 3 && body.data.points === 6, `job_video_add_all answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  expect(JSON.parse(res.request().postData() ?? '{}').id === mix.project, 'job_video_add_all was asked for another project');
  await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
  for (const id of body.data.variant_ids) await page.getByTestId(`library-row-${id}`).waitFor();
  for (const id of body.data.variant_ids) await page.locator(`[data-testid="variant-state-${id}"][data-state="success"]`).waitFor({ timeout: 240_000 });
  // nothing is left to make
  await page.locator('[data-testid="library-render-all"][disabled]').waitFor();
  const { rows } = await clipApi(`/clip.merchant_much_clip/index?name=${encodeURIComponent(mix.name)}`);
  const project = rows.find((p) => p.id === mix.project);
  expect(project?.capacity === 0 && project.variants.success === 8, `project ${JSON.stringify(project).slice(0, 300)}`);
});

const sliceMedia = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-slice-'));
await step('ffmpeg makes a 12 s long video and a 3 s finished video; demo uploads both through the API', async () => {
  const ff = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
  ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=12', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=12',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(sliceMedia, 'long.mp4'));
  ff('-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=550:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(sliceMedia, 'finished.mp4'));
  adv.sourceGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `长视频-${adv.stamp}` } });
  adv.sliceGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `切片镜头-${adv.stamp}` } });
  adv.moveGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `精选切片-${adv.stamp}` } });
  const upload = async (file, name) => (await uploadClip(clipApi, sliceMedia, adv.sourceGroup.id, file, name)).id;
  adv.longName = `直播回放-${adv.stamp}`;
  adv.finishedName = `成片-${adv.stamp}`;
  adv.long = await upload('long.mp4', adv.longName);
  adv.finished = await upload('finished.mp4', adv.finishedName);
  const [long] = await waitReady(clipApi, [adv.long, adv.finished], 180_000);
  expect(long.duration_ms > 11_500 && long.duration_ms < 12_500, `the long video lasts ${long.duration_ms} ms`);
});

await step('demo creates a fixed-length (3 s) slicing project on /batch_slice and it starts at once', async () => {
  await openClipMenu('menu-batch_slice');
  await page.waitForURL('**/batch_slice');
  await page.getByTestId('batch-slice-page').waitFor();
  await page.getByTestId('slice-create').click();
  await dialogReady(page, 'slice-form-wrap');
  // nothing filled in: the form refuses
  await submitUntilShown(page, 'slice-form-ok', page.getByText('请填写项目名称'), page.getByText('请至少选择一个视频'));
  await page.getByTestId('slice-form-name').fill(adv.sliceName);
  await pickOption(page, 'slice-form-videos', adv.longName);
  await page.getByTestId('slice-form-videos').getByText(adv.longName).waitFor();
  await page.keyboard.press('Escape'); // close the multiple select's list
  await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' }).catch(() => undefined);
  await fillNumber(page, 'slice-form-seconds', 3);
  await pickOption(page, 'slice-form-group', adv.sliceGroup.name);
  expect(await page.getByTestId('slice-form-start').isChecked(), '"start slicing after saving" is not preselected');
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'batch-slice-form-zh-CN.png') });
  const created = page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/create_project'));
  const exported = page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/job_export'));
  await page.getByTestId('slice-form-ok').click();
  const res = await created;
  const body = await res.json();
  expect(res.status() === 200 && body.code === 200, `create_project answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  const sent = JSON.parse(res.request().postData() ?? '{}');
  const want = { name: adv.sliceName, mode: 'fixed', seconds: 3, group_id: adv.sliceGroup.id, resource_ids: [adv.long] };
  const got = { name: sent.name, mode: sent.mode, seconds: sent.seconds, group_id: sent.group_id, resource_ids: sent.resource_ids };
  expect(JSON.stringify(got) === JSON.stringify(want), `create_project sent ${JSON.stringify(sent)}`);
  adv.slice = body.data.id;
  adv.source = body.data.sources?.[0]?.id;
  expect(adv.source && body.data.sources.length === 1 && body.data.sources[0].resource_id === adv.long, `project ${JSON.stringify(body.data).slice(0, 300)}`);
  const exp = await exported;
  const expBody = await exp.json();
  expect(exp.status() === 200 && expBody.data?.queued === 1, `job_export answered ${exp.status()} ${JSON.stringify(expBody).slice(0, 300)}`);
  await page.getByTestId('slice-form-wrap').waitFor({ state: 'hidden' });
  // the new project's detail opens by itself
  await page.getByTestId('slice-detail').waitFor();
  await page.getByTestId('slice-detail-settings').getByText(`固定时长 (每段 3 秒) · 放入 ${adv.sliceGroup.name}`).waitFor();
  await page.getByTestId(`source-state-${adv.source}`).waitFor();
  await page.getByTestId(`batchSlice-row-${adv.slice}`).waitFor({ state: 'attached' });
});

await step('the video is sliced into 4 clips of 3 s, listed in the project and playable', async () => {
  await page.locator(`[data-testid="source-state-${adv.source}"] [data-state="success"], [data-testid="source-state-${adv.source}"] [data-state="failed"]`).first().waitFor({ timeout: 180_000 });
  const state = await page.getByTestId(`source-state-${adv.source}`).locator('[data-state]').first().getAttribute('data-state');
  const error = await page.getByTestId(`source-state-${adv.source}`).textContent();
  expect(state === 'success', `slicing ended ${state}: ${error}`);
  await page.getByTestId('slice-count').getByText('切片（4）').waitFor();
  await page.locator('[data-testid^="slice-card-"]').nth(3).waitFor();
  const { rows, total } = await clipApi(`/clip.merchant_visual_editing/video_library?project_id=${adv.slice}`);
  expect(total === 4 && rows.length === 4, `video_library answered ${total} slices`);
  const cuts = rows.map((r) => [r.start_ms, r.end_ms]).sort((a, b) => a[0] - b[0]);
  expect(JSON.stringify(cuts.map(([s]) => s)) === '[0,3000,6000,9000]' && cuts.every(([s, e], i) => e === (cuts[i + 1]?.[0] ?? e)) && Math.abs(cuts[3][1] - 12_000) < 500,
    `cut points ${JSON.stringify(cuts)}`);
  expect(rows.every((r) => r.group_id === adv.sliceGroup.id && r.source_resource_id === adv.long && r.state === 'ready'), `slices ${JSON.stringify(rows.map((r) => [r.id, r.group_id, r.state]))}`);
  adv.slices = rows.map((r) => r.id);
  const cards = await page.locator('[data-testid^="slice-card-"]').evaluateAll((els) => els.map((e) => Number(e.dataset.testid.slice('slice-card-'.length))));
  expect(JSON.stringify([...cards].sort()) === JSON.stringify([...adv.slices].sort()), `the page shows slices ${JSON.stringify(cards)}`);
  const second = rows.find((r) => r.start_ms === 3000).id;
  await page.getByTestId(`slice-play-${second}`).click();
  const duration = await playsFor('slice-video');
  expect(duration > 2.7 && duration < 3.3, `the slice lasts ${duration} s`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'batch-slice-player-zh-CN.png') });
  await page.getByTestId('slice-player-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('slice-player-wrap').waitFor({ state: 'hidden' });
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.screenshot({ path: join(artifacts, 'batch-slice-detail-zh-CN.png') });
});

await step('demo adds all the slices to another shot group; /video lists the 4 clips there, ready', async () => {
  await pickOption(page, 'slice-move-group', adv.moveGroup.name);
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/job_video_add_all')),
    page.getByTestId('slice-move-all').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.moved === 4 && body.data.group_id === adv.moveGroup.id, `job_video_add_all answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  await page.locator('.ant-message-success', { hasText: `已将 4 个切片移入 ${adv.moveGroup.name}` }).first().waitFor();
  for (const id of adv.slices) await page.getByTestId(`slice-card-${id}`).getByText(adv.moveGroup.name).waitFor();
  await page.getByTestId('slice-detail').locator('.ant-drawer-close').click();
  await page.getByTestId('slice-detail').waitFor({ state: 'hidden' });
  await page.locator(`[data-testid="slice-state-${adv.slice}"] [data-state="success"]`).waitFor();
  await page.getByTestId(`slice-sources-${adv.slice}`).getByText('1/1').waitFor();
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.screenshot({ path: join(artifacts, 'batch-slice-zh-CN.png'), fullPage: true });
  // the material library: the clips are in the chosen group, ready for quick mix
  await page.goto('/video');
  await page.getByTestId('groups').waitFor();
  await page.getByTestId(`group-count-${adv.moveGroup.id}`).getByText('4/4').waitFor();
  await page.getByTestId(`group-item-${adv.moveGroup.id}`).click();
  await page.getByTestId('video-group-title').getByText(adv.moveGroup.name).waitFor();
  for (const id of adv.slices) await page.locator(`[data-testid="state-${id}"][data-state="ready"]`).waitFor();
  await page.getByTestId('video-total').getByText('共 4 条').waitFor();
  const { rows } = await clipApi('/clip.merchant_much_clip/get_resource_group');
  expect(rows.find((r) => r.id === adv.moveGroup.id)?.ready === 4, `shot group ${JSON.stringify(rows.find((r) => r.id === adv.moveGroup.id))}`);
  expect(rows.find((r) => r.id === adv.sliceGroup.id)?.count === 0, `the slicing group still holds ${JSON.stringify(rows.find((r) => r.id === adv.sliceGroup.id))}`);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'batch-slice-video-group-zh-CN.png'), fullPage: true });
});

await step('demo imports the finished video into /piece_rep: listed as imported and successful, and plays', async () => {
  await openClipMenu('menu-piece_rep');
  await page.waitForURL((url) => url.pathname === '/piece_rep' && !url.searchParams.has('project_id'));
  await page.getByTestId('library-table').waitFor();
  await page.getByTestId('library-import').click();
  await dialogReady(page, 'library-import-dialog-wrap');
  const search = page.getByTestId('library-import-search');
  await ((await search.evaluate((e) => e.tagName)) === 'INPUT' ? search : search.locator('input')).fill(adv.finishedName);
  await page.getByTestId(`import-video-${adv.finished}`).click();
  await page.locator('[data-testid="library-import-ok"]:not([disabled])').waitFor();
  await page.getByTestId('library-import-ok').getByText('导入（1）').waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(artifacts, 'piece-rep-import-zh-CN.png') });
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/add')),
    page.getByTestId('library-import-ok').click(),
  ]);
  const body = await res.json();
  expect(res.status() === 200 && body.data?.variant_ids?.length === 1, `add answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
  expect(JSON.stringify(JSON.parse(res.request().postData() ?? '{}').ids) === JSON.stringify([adv.finished]), `add sent ${res.request().postData()}`);
  adv.imported = body.data.variant_ids[0];
  await page.getByTestId('library-import-dialog-wrap').waitFor({ state: 'hidden' });
  await page.locator('.ant-message-success', { hasText: '已导入 1 个视频' }).first().waitFor();
  await page.getByTestId(`library-row-${adv.imported}`).waitFor();
  await page.locator(`[data-testid="variant-state-${adv.imported}"][data-state="success"]`).waitFor();
  await page.getByTestId(`variant-imported-${adv.imported}`).getByText('导入').waitFor();
  await page.getByTestId(`variant-project-${adv.imported}`).getByText(adv.finishedName).waitFor();
  await page.locator(`[data-testid="variant-used-${adv.imported}"][data-used="0"]`).waitFor();
  await page.getByTestId(`variant-play-${adv.imported}`).click();
  const duration = await playsFor('variant-video');
  expect(duration > 2.5 && duration < 3.5, `the imported video lasts ${duration} s`);
  await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('variant-player-wrap').waitFor({ state: 'hidden' });
  const { rows } = await clipApi('/clip.merchant_video_library/index?pageSize=100');
  const row = rows.find((r) => r.id === adv.imported);
  expect(row?.state === 'success' && row.project_id === 0 && row.clips?.[0]?.id === adv.finished, `imported row ${JSON.stringify(row).slice(0, 300)}`);
});

await step('importing the same video again is refused in the dialog', async () => {
  await page.getByTestId('library-import').click();
  await dialogReady(page, 'library-import-dialog-wrap');
  await page.getByTestId(`import-video-${adv.finished}`).click();
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/add')),
    page.getByTestId('library-import-ok').click(),
  ]);
  expect(res.status() === 422, `a second import answered ${res.status()}`);
  await page.getByTestId('library-import-error').getByText(`该视频已在成片库中：${adv.finishedName}`).waitFor();
  await page.getByTestId('library-import-dialog-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('library-import-dialog-wrap').waitFor({ state: 'hidden' });
  expect((await rowIds(page, 'library')).filter((id) => id === adv.imported).length === 1, 'the library lists the import twice');
});

await step('advanced mode, batch slice and the import in English', async () => {
  await setLanguage(page, 'en');
  await page.getByTestId(`variant-imported-${adv.imported}`).getByText('Imported').waitFor();
  await page.getByTestId('library-import').getByText('Import videos').waitFor();
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'piece-rep-import-en.png'), fullPage: true });
  await openClipMenu('menu-high_modeVisualization_clip');
  await page.waitForURL('**/high_modeVisualization_clip');
  await page.getByTestId('page-title').getByText('Advanced mode').waitFor();
  await page.getByTestId(`projects-row-${adv.project}`).waitFor();
  await page.getByTestId(`project-edit-${adv.project}`).click();
  await page.getByTestId(`group-transition-${mix.groups[0].id}`).getByText('Fade').waitFor();
  await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'clip-senior-project-en.png'), fullPage: true });
  await page.getByTestId('project-form-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
  await openClipMenu('menu-batch_slice');
  await page.waitForURL('**/batch_slice');
  await page.getByTestId('page-title').getByText('Batch slice').waitFor();
  await page.locator(`[data-testid="slice-state-${adv.slice}"] [data-state="success"]`).getByText('Done').waitFor();
  await page.getByTestId(`slice-open-${adv.slice}`).click();
  await page.getByTestId('slice-count').getByText('Slices (4)').waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(artifacts, 'batch-slice-detail-en.png') });
});
rmSync(sliceMedia, { recursive: true, force: true });
await clipContext?.close().catch(() => undefined);
rmSync(clipMedia, { recursive: true, force: true });

await finish();
