// Content (area `content`, one story): the hot lists render the sandbox's boards (read by the job at
// start), "use as topic" lands in a new release task's topics and "use in a mix" in a new quick-mix
// project; the operator uploads a course video that the merchant's course page plays; the 'header'
// home (/home) when the stored home type is 1; /code, /visualIframe and the operator's /test; and the
// pages in English (the zh-only routes say so).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, apiAs, artifacts, DEMO, dialogReady, expect, pageToken, setLanguage, signIn, story } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('content', () => page);
const s = { stamp: Date.now().toString(36) };

/** Waits until a hot-list page shows its first row (the board may still be being read). */
async function firstRow(testId) {
  await page.getByTestId(testId).first().waitFor({ timeout: 30_000 });
}

await step('/hottopic: the topic board renders; "use as topic" opens a release task with it', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  await page.goto('/hottopic');
  await page.getByTestId('hot-page-topic').waitFor();
  await firstRow('hot-use-topic-1');
  const top = (await page.locator('.ant-table-row').first().locator('strong').first().innerText()).replace(/^#/, '');
  s.topic = top;
  await page.getByTestId('hot-meta').waitFor();
  // The sandbox answered the board: its rows are marked simulated.
  await page.getByTestId('hot-simulated').getByText('模拟数据').waitFor();
  await page.screenshot({ path: join(artifacts, 'content-hottopic-zh-CN.png'), fullPage: true });
  await page.getByTestId('hot-use-topic-1').click();
  await page.waitForURL((u) => u.pathname === '/send_management');
  await page.getByTestId('task-handed-topics').waitFor();
  // filled in on step 3 (Content) of the form, hidden until the merchant gets there
  await page.getByTestId('task-topics').getByText(s.topic).first().waitFor({ state: 'attached' });
  await page.screenshot({ path: join(artifacts, 'content-topic-in-task-zh-CN.png'), fullPage: true });
});

await step('/hotmusic: boards switch; "use in a mix" opens a new quick-mix project naming the song', async () => {
  await page.goto('/hotmusic');
  await page.getByTestId('hot-page-music').waitFor();
  await firstRow('hot-use-music-1');
  await Promise.all([page.waitForResponse((r) => r.url().includes('board=music_soar')), page.getByTestId('hot-boards').getByText('飙升榜').click()]);
  await firstRow('hot-use-music-1');
  await page.getByTestId('hot-use-music-1').click();
  await page.waitForURL((u) => u.pathname === '/normal_mode');
  await page.getByTestId('project-form-handed-music').waitFor();
  await page.screenshot({ path: join(artifacts, 'content-music-in-mix-zh-CN.png'), fullPage: true });
  await page.keyboard.press('Escape');
});

await step('/keywords, /hotvideo, /life, /doyen render their boards', async () => {
  for (const [path, pageId, rowId] of [
    ['/keywords', 'hot-page-keywords', 'hot-use-topic-1'],
    ['/hotvideo', 'hot-page-video', 'hot-use-topic-1'],
  ]) {
    await page.goto(path);
    await page.getByTestId(pageId).waitFor();
    await firstRow(rowId);
  }
  for (const path of ['/life', '/doyen']) {
    await page.goto(path);
    await page.locator('[data-testid^="hot-page-"] .ant-table-row').first().waitFor({ timeout: 30_000 });
  }
  await page.screenshot({ path: join(artifacts, 'content-doyen-zh-CN.png'), fullPage: true });
});

await step('courses: the operator uploads a video for a shooting tutorial; the merchant plays it', async () => {
  const file = join(tmpdir(), `course-${s.stamp}.mp4`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=360x640:r=25:d=2', '-pix_fmt', 'yuv420p', file]);
  const adminCtx = await newContext();
  const admin = await newPage(adminCtx);
  await signIn(admin, 'account', ADMIN);
  await admin.goto('/system/content');
  await admin.getByTestId('course-add').click();
  await dialogReady(admin, 'course-form-wrap').catch(() => admin.getByTestId('course-form-form').waitFor());
  await admin.getByTestId('course-category').click();
  await admin.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '拍摄教程' }).click();
  await admin.getByTestId('course-title').fill(`上传课程${s.stamp}`);
  const [up] = await Promise.all([
    admin.waitForResponse((r) => r.url().includes('/system/content/upload')),
    admin.getByTestId('course-video-upload-input').setInputFiles({ name: 'lesson.mp4', mimeType: 'video/mp4', buffer: readFileSync(file) }),
  ]);
  const src = (await up.json()).data.src;
  expect(src.startsWith('/files/'), `upload answered ${src}`);
  await admin.waitForFunction(
    (v) => [...document.querySelectorAll('[data-testid="course-video-url"]')].some((e) => (e.value ?? e.querySelector('input')?.value) === v),
    src,
  );
  const [saved] = await Promise.all([admin.waitForResponse((r) => r.url().includes('/system/content/course_add')), admin.getByTestId('course-form-ok').click()]);
  const course = (await saved.json()).data;
  expect(course.video_url === src, `saved ${JSON.stringify(course).slice(0, 200)}`);
  await adminCtx.close();
  rmSync(file, { force: true });

  await page.goto('/shot_tutorial');
  await page.getByTestId(`course-card-${course.id}`).click();
  const video = page.getByTestId('course-video');
  await video.waitFor();
  await page.waitForFunction(() => {
    const v = document.querySelector('[data-testid="course-video"]');
    return v && v.readyState >= 2 && v.duration > 1;
  });
  await page.screenshot({ path: join(artifacts, 'content-course-video-zh-CN.png') });
  await page.keyboard.press('Escape');
});

await step('/home: the operator sets demo\'s home type to 1; the console opens the header layout at /home', async () => {
  const ctx = await newContext();
  const admin = await newPage(ctx);
  await signIn(admin, 'account', ADMIN);
  const api = apiAs(base, () => s.adminToken);
  s.adminToken = await pageToken(admin);
  const merchants = await api('/system/merchant/index?limit=100');
  const demo = merchants.rows.find((m) => m.username === DEMO.username);
  const edited = await api('/system/merchant/edit', { method: 'POST', body: { id: demo.id, home_type: 1 } });
  expect(edited.home_type === 1, `home type ${edited.home_type}`);
  await ctx.close();
  // the console learns the stored home type with its menu (/ajax/initAdmin), then starts at /home
  await page.goto('/dashboard');
  await page.getByTestId('layout-header').waitFor();
  await page.goto('/');
  await page.waitForURL((u) => u.pathname === '/home');
  await page.getByTestId('home-page').waitFor();
  await page.getByTestId('top-menu').waitFor();
  await page.getByTestId('home-hot').locator('.ant-list-item').first().waitFor({ timeout: 30_000 });
  await page.getByTestId('home-shortcut-send_management').waitFor();
  await page.getByTestId('home-courses').locator('.ant-list-item').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'content-home-header-zh-CN.png'), fullPage: true });
});

await step('/code shows a sign-in code per login type; /visualIframe frames the video library', async () => {
  await page.goto('/code');
  for (const type of [1, 2, 3]) await page.getByTestId(`code-qr-${type}`).waitFor();
  await page.getByTestId('code-link-3').getByText('/login?type=3').waitFor();
  await page.goto('/visualIframe');
  const frame = page.frameLocator('[data-testid="visual-iframe"]');
  await frame.locator('main[data-count]').waitFor();
  await page.screenshot({ path: join(artifacts, 'content-visual-iframe-zh-CN.png'), fullPage: true });
});

await step('/test: the operator\'s self-test passes its checks', async () => {
  const ctx = await newContext();
  const admin = await newPage(ctx);
  await signIn(admin, 'account', ADMIN);
  await admin.goto('/test');
  for (const name of ['database', 'storage', 'ffmpeg', 'platform_dy', 'billboards']) {
    await admin.getByTestId(`selftest-${name}`).getByText('正常').waitFor({ timeout: 30_000 });
  }
  await admin.screenshot({ path: join(artifacts, 'content-selftest-zh-CN.png'), fullPage: true });
  await ctx.close();
});

await step('in English: the hot lists speak English; zh-only routes say so; /user_library is offered', async () => {
  await page.goto('/hottopic');
  await setLanguage(page, 'en');
  await page.getByTestId('page-title').getByText('Hot topics').waitFor();
  await firstRow('hot-use-topic-1');
  await page.getByTestId('hot-use-topic-1').getByText('Use as topic').waitFor();
  await page.goto('/visualIframe');
  await page.getByTestId('route-lang').waitFor();
  await page.goto('/shot_tutorial');
  await page.getByTestId('route-lang').waitFor();
  await page.goto('/user_library');
  await page.getByTestId('route-lang').waitFor({ state: 'detached', timeout: 3000 }).catch(() => undefined);
  expect((await page.getByTestId('route-lang').count()) === 0, '/user_library is in the English table');
  await page.screenshot({ path: join(artifacts, 'content-en.png'), fullPage: true });
});

await finish();
