// AI clip (area `clip`, one story): in zh-CN the merchant opens /template_clip, sees the
// built-in templates by industry, likes one and uses it with its own shot groups (matched by name) —
// a quick-mix project appears on /normal_mode; then on /newAiHome types a topic and makes two one-touch
// videos of 15 s: the job's steps move over SSE to 完成, with its script and matched shots, and the videos
// play and carry the AI-content label; then picks 图片 as footage and makes an image project from its
// image library (a pan-and-zoom slideshow), listed under 图片项目; one of the one-touch videos goes out
// to a Douyin account through the release form (tagged AI, declared AI-generated) and the platform
// reads its label. At the end the same screens in English: /oneKeyVideoNew is the English route of the
// page (its menu entry too, with both kinds of projects), /template_clip and /newAiHome say they are in
// the Chinese console only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, apiAs, artifacts, DEMO, expect, fillNumber, pageToken, sandboxFetch, SANDBOX_TOKEN, setLanguage, signIn, signInApi, story, uploadClip, waitReady } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('aiclip', () => page);
const s = { token: null, groups: [], job: null, imgJob: null, video: null };
const api = apiAs(base, () => s.token);

/** A `secs`-long 720x1280 clip of one colour with a tone, `<dir>/<colour>.mp4`. */
function clip(dir, colour, secs) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=720x1280:r=30:d=${secs}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${secs}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(dir, `${colour}.mp4`)], { stdio: 'pipe' });
}

await step('shot groups named for what they show (through the API)', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  s.token = await pageToken(page);
  const dir = mkdtempSync(join(tmpdir(), 'aiclip-e2e-'));
  try {
    const plan = [['门店外景', ['red', 'orange']], ['招牌菜', ['yellow', 'green']], ['后厨制作', ['blue']], ['顾客用餐', ['white']], ['结尾地址', ['purple']]];
    const ids = [];
    for (const [name, colours] of plan) {
      const g = await api('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name } });
      s.groups.push(g.id);
      for (const c of colours) {
        clip(dir, c, 6);
        ids.push((await uploadClip(api, dir, g.id, `${c}.mp4`, c)).id);
      }
    }
    await waitReady(api, ids, 240_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

await step('/template_clip: built-in templates by industry, a favourite, "use template" makes a project', async () => {
  await page.goto('/template_clip');
  await page.getByTestId('template-clip-page').waitFor();
  await page.getByTestId('page-title').getByText('模板剪辑').waitFor();
  await page.getByTestId('template-categories').getByText('餐饮美食 (2)').click();
  const card = page.locator('[data-testid^="template-name-"]', { hasText: '招牌菜探店' });
  await card.waitFor();
  const id = Number((await card.getAttribute('data-testid')).slice('template-name-'.length));
  await page.getByTestId(`template-slots-${id}`).getByText('门店外景 → 招牌菜 → 后厨制作 → 顾客用餐 → 结尾地址').waitFor();
  await page.getByTestId(`template-like-${id}`).click();
  await page.locator(`[data-testid="template-like-${id}"][data-liked="1"]`).waitFor();
  await page.getByTestId('template-categories').getByText('我的收藏').click();
  await page.getByTestId(`template-name-${id}`).waitFor();
  await page.getByTestId(`template-use-${id}`).click();
  await page.getByTestId('template-use-name').fill('老王面馆');
  const [made] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/clip.merchant_ai_clip_template/template_clip')),
    page.getByTestId('template-use-ok').click(),
  ]);
  const p = (await made.json()).data;
  expect(JSON.stringify(p.config.groups.map((g) => g.group_id)) === JSON.stringify(s.groups), `groups matched by name: ${JSON.stringify(p.config.groups)}`);
  expect(p.config.title.text === '老王面馆·必吃招牌', `title ${p.config.title.text}`);
  await page.waitForURL('**/normal_mode');
  await page.getByTestId(`project-name-${p.id}`).getByText('老王面馆').waitFor();
  await page.screenshot({ path: join(artifacts, 'aiclip-template-zh-CN.png'), fullPage: true });
});

await step('/newAiHome: a topic becomes two voiced videos, steps and progress over SSE', async () => {
  const before = (await api('/index/dashboard')).points;
  await page.goto('/newAiHome');
  await page.getByTestId('one-touch-page').waitFor();
  await page.getByTestId('page-title').getByText('AI一键成片').waitFor();
  await page.getByTestId('one-touch-topic').fill('手工牛肉面，汤底熬足八小时');
  const count = page.getByTestId('one-touch-count');
  const input = (await count.evaluate((e) => e.tagName)) === 'INPUT' ? count : count.locator('input').first();
  await input.fill('2');
  await input.press('Tab');
  await page.getByText('4 点（每条 2 点，合成失败退还）').waitFor();
  // The target length: 15 s (the 6 s clips of the groups carry it).
  await page.getByText('15–60 秒，文案按这个时长来写').waitFor();
  await fillNumber(page, 'one-touch-seconds', 15);
  const [queued] = await Promise.all([page.waitForResponse((r) => r.url().includes('/media.merchant_key_slice/oneTouchNew')), page.getByTestId('one-touch-submit').click()]);
  const body = await queued.json();
  expect(body.code === 200 && body.data.state === 'queued' && body.data.seconds === 15 && body.data.kind === 'video', `oneTouchNew ${JSON.stringify(body).slice(0, 300)}`);
  s.job = body.data.id;
  await page.getByTestId(`one-touch-state-${s.job}`).getByText('完成').waitFor({ timeout: 480_000 });
  await page.getByTestId(`one-touch-script-${s.job}`).getByText('牛肉面', { exact: false }).first().waitFor();
  await page.getByTestId(`one-touch-shots-${s.job}`).getByText('门店外景', { exact: false }).waitFor();
  await page.getByTestId(`one-touch-progress-${s.job}`).getByText('100%').waitFor();
  const videos = (await api(`/media.merchant_key_slice/getVideoList?id=${s.job}`)).rows;
  expect(videos.length === 2 && videos.every((v) => v.state === 'success') && videos[0].seq.join() !== videos[1].seq.join(), `videos ${JSON.stringify(videos).slice(0, 300)}`);
  await page.getByTestId(`one-touch-video-${videos[0].id}`).waitFor();
  const res = await fetch(`${base}${videos[0].src}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(res.status === 200 && bytes.byteLength > 10_000, 'the video is served');
  // Generated: the file carries the implicit AI-content label (GB 45438-2025), as ffprobe reads it.
  const dir = mkdtempSync(join(tmpdir(), 'aiclip-label-'));
  try {
    writeFileSync(join(dir, 'v.mp4'), bytes);
    const tag = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format_tags=AIGC', '-of', 'default=noprint_wrappers=1:nokey=1', join(dir, 'v.mp4')]).toString().trim();
    expect(JSON.parse(tag || '{}').Label === '1', `the video's AIGC field: ${tag}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  s.video = videos[0].id;
  expect((await api('/index/dashboard')).points === before - 4, 'two videos cost 4 points');
  await page.screenshot({ path: join(artifacts, 'aiclip-one-touch-zh-CN.png'), fullPage: true });
});

await step('/newAiHome with images as footage: an image project of a pan-and-zoom slideshow', async () => {
  // Four images in the image library, two in a category named for the dish.
  const cat = await api('/bpdr.merchant_file_type/add', { method: 'POST', body: { type: 'image', name: '招牌菜' } });
  const dir = mkdtempSync(join(tmpdir(), 'aiclip-img-'));
  try {
    const plan = [['牛肉面特写', 'testsrc2=s=1080x1920', cat.id], ['招牌牛肉面', 'testsrc=s=1600x1200', cat.id], ['门店外景', 'smptebars=s=900x1600', 0], ['顾客用餐', 'rgbtestsrc=s=1200x1200', 0]];
    for (const [name, src, type] of plan) {
      const file = join(dir, `${name}.png`);
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', src, '-frames:v', '1', file], { stdio: 'pipe' });
      const form = new FormData();
      form.append('type', 'image');
      form.append('file', new Blob([readFileSync(file)], { type: 'image/png' }), `${name}.png`);
      const m = await api('/media.merchant_producing_upfile/add', { method: 'POST', form });
      await api('/clip.merchant_image_library/save', { method: 'POST', body: { id: m.id, name, file_type_id: type } });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const before = (await api('/index/dashboard')).points;
  await page.goto('/newAiHome');
  await page.getByTestId('one-touch-page').waitFor();
  await page.getByTestId('one-touch-kind').getByText('图片').click();
  await page.getByText('用图片库里的图片，每句文案一张，带推拉摇移效果').waitFor();
  await page.getByTestId('one-touch-categories').waitFor();
  expect((await page.getByTestId('one-touch-groups').count()) === 0, 'images: no shot group picker');
  await fillNumber(page, 'one-touch-seconds', 15);
  // One slideshow: a pan-and-zoom render is minutes of CPU under the full run (that several come out
  // unique is the Rust story's, aiclip::a_topic_becomes_unique_image_slideshows).
  await fillNumber(page, 'one-touch-count', 1);
  await page.getByTestId('one-touch-topic').fill('手工牛肉面，汤底熬足八小时');
  const [queued] = await Promise.all([page.waitForResponse((r) => r.url().includes('/media.merchant_key_slice/oneTouchNew')), page.getByTestId('one-touch-submit').click()]);
  const body = await queued.json();
  expect(body.code === 200 && body.data.kind === 'image' && body.data.seconds === 15, `oneTouchNew ${JSON.stringify(body).slice(0, 300)}`);
  s.imgJob = body.data.id;
  // The image projects' tab shows it, through every step to 完成.
  await page.getByTestId(`one-touch-kind-${s.imgJob}`).getByText('图片').waitFor();
  await page.getByTestId(`one-touch-state-${s.imgJob}`).getByText('完成').waitFor({ timeout: 480_000 });
  await page.getByTestId(`one-touch-shots-${s.imgJob}`).getByText('张图', { exact: false }).first().waitFor();
  const videos = (await api(`/media.merchant_key_slice/getImgList?id=${s.imgJob}`)).rows;
  expect(videos.length === 1 && videos[0].state === 'success', `image videos ${JSON.stringify(videos).slice(0, 300)}`);
  await page.getByTestId(`one-touch-video-${videos[0].id}`).waitFor();
  const res = await fetch(`${base}${videos[0].src}`);
  expect(res.status === 200 && (await res.arrayBuffer()).byteLength > 10_000, 'the slideshow is served');
  expect((await api('/index/dashboard')).points === before - 2, 'a slideshow costs 2 points');
  const listed = await api('/media.merchant_key_slice/getImgProject');
  expect(listed.total === 1 && listed.rows[0].id === s.imgJob, `getImgProject ${JSON.stringify(listed).slice(0, 200)}`);
  // The video projects are in the other tab.
  await page.getByTestId('one-touch-tab-video').click();
  await page.getByTestId(`one-touch-state-${s.job}`).getByText('完成').waitFor();
  await page.screenshot({ path: join(artifacts, 'aiclip-images-zh-CN.png'), fullPage: true });
});

await step('a one-touch video goes out to Douyin: tagged AI and declared AI-generated in the release form, and Douyin reads its label', async () => {
  await page.goto('/account_auth');
  await page.getByTestId('auth-dy').click();
  await page.waitForURL((url) => url.pathname.startsWith('/sandbox/dy/'), { timeout: 20_000 });
  await page.locator('#nickname').fill('一键成片号');
  await page.locator('#approve').click();
  await page.waitForURL((url) => url.pathname === '/account_auth');
  const account = (await api('/task.merchant_group_user/index?limit=50')).rows.find((r) => r.nickname === '一键成片号')?.id;
  expect(account, 'the Douyin account was not authorized');
  await page.goto('/send_management');
  await page.getByTestId('task-new').click();
  await page.getByTestId('task-step-0').waitFor();
  await page.getByTestId('task-name').fill('一键成片发布');
  await page.getByTestId('task-platform-dy').click();
  await page.getByTestId(`account-check-${account}`).click();
  await page.getByTestId('step-next').click();
  // The picker tags the one-touch video as AI-made.
  await page.getByTestId('task-step-1').waitFor({ state: 'visible' });
  const key = `v:${s.video}`;
  await page.getByTestId(`video-ai-${key}`).waitFor();
  await page.getByTestId(`video-card-${key}`).click();
  await page.locator(`[data-testid="video-card-${key}"][data-selected="true"]`).waitFor();
  await page.getByTestId('step-next').click();
  // The declaration follows what the video is made of: AI-generated on Douyin.
  await page.getByTestId('task-step-2').waitFor({ state: 'visible' });
  await page.getByTestId('task-titles').fill('手工牛肉面#汤底熬足八小时');
  await page.getByTestId('task-topics').click();
  await page.keyboard.type('美食探店');
  await page.keyboard.press('Enter');
  await page.getByTestId('task-topics').getByText('美食探店').waitFor();
  await page.getByTestId('declaration-on-dy-ai_generated').waitFor();
  await page.getByTestId('step-next').click();
  await page.getByTestId('task-step-3').waitFor({ state: 'visible' });
  await page.getByTestId('time-mode-random').click();
  await fillNumber(page, 'task-daily', 1);
  await fillNumber(page, 'task-days', 1);
  await page.locator('[data-testid="task-counts"][data-problem=""]').waitFor();
  await page.getByTestId('plan-preview').click();
  await page.getByTestId('plan-view').waitFor();
  const [made] = await Promise.all([
    // A Douyin-only task is created by the platform's own call.
    page.waitForResponse((r) => r.url().includes('/api/task.merchant_forward_task/dy_add')),
    page.getByTestId('task-confirm').click(),
  ]);
  const task = (await made.json()).data?.task?.id;
  expect(task, 'the task was not created');
  // The operator approves; the platform's clock runs past the plan (today's window or tomorrow's).
  const admin = await signInApi(base, ADMIN);
  await apiAs(base, () => admin)('/system/audit/approve', { method: 'POST', body: { id: task } });
  await sandboxFetch(`${base}/sandbox/_control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: 2 * 86_400_000 + 3_600_000 }) });
  const deadline = Date.now() + 120_000;
  let item;
  for (;;) {
    const { rows } = await api('/task.merchant_forward_task/forward_video_release', { method: 'POST', body: { task_id: task } });
    expect(!rows.some((r) => r.state === 'failed'), `the item failed: ${JSON.stringify(rows.map((r) => r.error))}`);
    if (rows[0]?.item_id && ['published', 'released'].includes(rows[0].state)) {
      item = rows[0].item_id;
      break;
    }
    expect(Date.now() < deadline, `the item is ${JSON.stringify(rows.map((r) => r.state))}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  // Douyin read the file's AIGC field on upload and labels the work.
  const counts = await (await sandboxFetch(`${base}/sandbox/_control/counts`)).json();
  const work = counts.works.find((w) => w.item_id === item);
  expect(work?.aigc?.Label === '1' && work.aigc.ProduceID.endsWith(`-v${s.video}`), `the work on Douyin: ${JSON.stringify(work).slice(0, 400)}`);
  await page.goto(`/sandbox?sandbox_token=${SANDBOX_TOKEN}`);
  await page.getByText('AI生成（文件隐式标识）', { exact: false }).first().waitFor();
  await page.screenshot({ path: join(artifacts, 'aiclip-published-label.png'), fullPage: true });
  await page.goto('/newAiHome');
  await page.getByTestId('one-touch-page').waitFor();
});

await step('the AI clip screens in English', async () => {
  await setLanguage(page, 'en');
  await page.goto('/oneKeyVideoNew');
  await page.getByTestId('page-title').getByText('One-touch video').waitFor();
  await page.getByTestId(`one-touch-state-${s.job}`).getByText('Done').waitFor();
  await page.getByText('Videos (2/2)').waitFor();
  await page.getByTestId('one-touch-kind').getByText('Images').click();
  await page.getByText('Your images as a slideshow with pan and zoom, one per sentence').waitFor();
  await page.getByText('15–60 s; the script is written to be read in about this long').waitFor();
  await page.getByTestId('one-touch-tab-image').click();
  await page.getByTestId(`one-touch-state-${s.imgJob}`).getByText('Done').waitFor();
  await page.getByTestId(`one-touch-kind-${s.imgJob}`).getByText('Images').waitFor();
  await page.getByTestId('menu-oneKeyVideoNew').waitFor();
  expect((await page.getByTestId('menu-newAiHome').count()) === 0, 'the zh route is not in the English menu');
  await page.goto('/newAiHome');
  await page.getByTestId('route-lang').waitFor();
  await page.goto('/template_clip');
  await page.getByTestId('route-lang').waitFor();
  await page.screenshot({ path: join(artifacts, 'aiclip-en.png'), fullPage: true });
});

await finish();
